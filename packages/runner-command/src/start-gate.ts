import type { Writable } from 'node:stream';
import { CommandStartError } from './command-start-error.ts';

/**
 * A start gate: the process is `sh` waiting for one line on a pipe before it execs the real command
 * (same pid, same process group, the pipe closed first). Whoever started it opens the gate once the
 * journal has recorded the group; if that process dies first, the pipe's end closes, `read` fails and
 * the command never runs. So a worker killed between starting a durable hook and recording it leaves
 * nothing running that the next claimant of the entry cannot find and end.
 */
export interface StartGate {
  /** The command line to spawn instead of the real one. */
  readonly file: string;
  readonly args: readonly string[];
  /** The descriptor number the gate's pipe must have in the child. */
  readonly fd: number;
}

/** The exit status of a gated process whose gate was closed without opening: its command never ran. */
export const GATE_CLOSED_STATUS = 125;

/** Redirections in `sh` take one digit: a gate needs its pipe at fd 9 or below. */
const LAST_GATE_FD = 9;

/** The gated command line for `file args`, with the gate's pipe at `fd`; undefined when fd is too high. */
export function gatedCommand(file: string, args: readonly string[], fd: number): StartGate | undefined {
  if (fd > LAST_GATE_FD) return undefined;
  const script = `IFS= read -r _ <&${fd} || exit ${GATE_CLOSED_STATUS}; exec ${fd}<&-; exec "$0" "$@"`;
  return { file: '/bin/sh', args: ['-c', script, file, ...args], fd };
}

/** What became of a gate, for reading its process's exit. */
export interface GateVerdict {
  /** The failure to report instead of the exit: the gate was shut by a refusal and the command never ran. */
  refusal(exitCode: number | null): CommandStartError | undefined;
}

/**
 * Waits for the record that decides a gate and hands the decision to `settle`: `true` opens it,
 * `false` shuts it for good, and a rejection opens it too (a journal that could not write holds a
 * hook back no further than before). Every launcher decides its gates here.
 */
export function awaitRecord(record: Promise<boolean>, settle: (go: boolean) => void): GateVerdict {
  let refused = false;
  void record.then(
    (go) => {
      refused = !go;
      settle(go);
    },
    () => settle(true),
  );
  return { refusal: (exitCode) => (refused && exitCode === GATE_CLOSED_STATUS ? gateRefused() : undefined) };
}

/** Opens the gate (`go`) or closes it for good. */
export function settleGate(pipe: Writable, go: boolean): void {
  if (go) pipe.end('\n');
  else pipe.destroy();
}

/** The failure reported for a hook whose gate stayed closed because its entry is another engine's now. */
function gateRefused(): CommandStartError {
  return new CommandStartError(
    'not started: the journal entry of this durable hook is no longer held by this engine (its lease was lost, and another engine may run it)',
  );
}
