import { setTimeout as sleep } from 'node:timers/promises';
import { AgentGoneError, type ContainerAgent } from './container-agent.ts';
import { spawnSetupLine, type SpawnSetup } from './hook-spawner.ts';
import type { RawExecResult } from './run-exec.ts';

/** One hook for the agent to start: what {@link spawnSetupLine} takes, plus its stdin, cap and stop. */
export interface AgentHookSpec extends SpawnSetup {
  readonly stdin?: string | Uint8Array;
  readonly maxOutputBytes: number;
  /** Aborting calls `stop` (again until the hook's main process exited); the result then has `aborted` set. */
  readonly signal?: AbortSignal;
  readonly stop?: () => Promise<void>;
}

/** How a hook the agent started ended, with the limit counters read right after. */
export interface AgentHookResult extends RawExecResult {
  /** The agent's counters answer, `OOM PIDS`. */
  readonly counters: string;
  /** Set when the hook never ran: its working directory or program is missing, or a fork was refused. */
  readonly notStarted?: 'nocwd' | 'noexec' | 'lost' | 'bad';
}

/**
 * After the main process exits, what it wrote is in the capture files as soon as its pipes close —
 * unless a background process holds them. Like a Docker exec's output, they are waited for this
 * long, then the capture processes are ended and what they kept is taken.
 */
const OUTPUT_DRAIN_MS = 200;
/** Pause between attempts to stop a hook that is still running after one. */
const STOP_RETRY_MS = 100;
/** A collection whose `base64` fork was refused (a busy pids limit) is asked again, this often. */
const COLLECT_ATTEMPTS = 3;

/**
 * Runs one hook through the container's agent (see `hook-spawner.ts`): the agent forks it, its stdin
 * comes through a pipe, its exit status and the completion of its two output streams arrive as reports
 * on the agent's stderr, and its output is then collected over the agent's stdout. Rejects when the
 * agent refuses the start or the container stops (an {@link AgentGoneError}); once the hook has
 * started it resolves, even when the resident agent dies meanwhile (the collection is then an exec).
 */
export async function runAgentHook(agent: ContainerAgent, spec: AgentHookSpec): Promise<AgentHookResult> {
  const key = spec.marker;
  let status: string | undefined;
  /** Each stream whose capture is complete: `0` empty, `1` not. */
  const complete = new Map<string, string>();
  let wake: (() => void) | undefined;
  const unlisten = agent.listen(key, (report) => {
    if (report.startsWith('x ')) status ??= report.slice(2);
    else complete.set(report.slice(0, 1), report.slice(2));
    wake?.();
  });
  /** Resolves when `ready()` holds or `timeoutMs` passed; rejects when the container stopped. */
  const until = async (ready: () => boolean, timeoutMs?: number): Promise<void> => {
    let late = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            late = true;
            wake?.();
          }, timeoutMs);
    try {
      while (!ready() && !late) {
        if (agent.isEnded) throw new AgentGoneError();
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), agent.ended]);
      }
    } finally {
      clearTimeout(timer);
    }
  };

  let stopping: Promise<void> | undefined;
  const onAbort = (): void => {
    // The hook's process may not exist yet when the abort comes: stop until its main process exited.
    stopping ??= (async () => {
      while (status === undefined && !agent.isEnded) {
        await (spec.stop?.() ?? Promise.resolve()).catch(() => undefined);
        if (status === undefined) await sleep(STOP_RETRY_MS, undefined, { ref: false });
      }
    })();
  };
  try {
    if (spec.signal?.aborted) return { ...emptyResult(null, true), counters: '' };
    // A slot is given back only once its files are taken and their writers gone; on any failure it is not reused.
    const slot = agent.takeSlot();
    await agent.request('x', `${key} ${spec.maxOutputBytes + 1} ${slot}`, spawnSetupLine(spec), spec.stdin ?? '');
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    if (spec.signal?.aborted) onAbort();
    await until(() => status !== undefined);
    if (stopping !== undefined) await stopping;
    const [code = '', ...counters] = status!.split(' ');
    const exitCode = /^\d+$/.test(code) ? Number(code) : null;
    if (exitCode !== null) await until(() => complete.has('o') && complete.has('e'), OUTPUT_DRAIN_MS);
    if (exitCode !== null && complete.get('o') === '0' && complete.get('e') === '0') {
      // Nothing to carry back: the exit status and the counters came with the reports, and the slot's files are empty.
      agent.releaseSlot(slot);
      return { ...emptyResult(exitCode, stopping !== undefined), counters: counters.join(' ') };
    }
    const held = exitCode !== null && !(complete.has('o') && complete.has('e'));
    let answer;
    for (let attempt = 1; ; attempt++) {
      try {
        answer = await agent.request('o', `${key} ${held ? 1 : 0} ${slot}`);
        agent.releaseSlot(slot);
        break;
      } catch (error) {
        if (error instanceof AgentGoneError || attempt >= COLLECT_ATTEMPTS) throw error;
        await sleep(50);
      }
    }
    const capture = (bytes: Uint8Array): [Uint8Array, boolean] =>
      bytes.length > spec.maxOutputBytes ? [bytes.subarray(0, spec.maxOutputBytes), true] : [bytes, false];
    const [stdout, stdoutTruncated] = capture(answer.stdout);
    const [stderr, stderrTruncated] = capture(answer.stderr);
    return {
      exitCode,
      stdout,
      stderr,
      stdoutTruncated,
      stderrTruncated,
      aborted: stopping !== undefined,
      counters: answer.text,
      ...(exitCode === null && { notStarted: code as 'nocwd' | 'noexec' | 'lost' | 'bad' }),
    };
  } finally {
    unlisten();
    spec.signal?.removeEventListener('abort', onAbort);
  }
}

function emptyResult(exitCode: number | null, aborted: boolean): RawExecResult {
  return {
    exitCode,
    stdout: new Uint8Array(0),
    stderr: new Uint8Array(0),
    stdoutTruncated: false,
    stderrTruncated: false,
    aborted,
  };
}
