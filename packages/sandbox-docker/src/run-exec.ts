import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import { createFrameDemuxer } from './frame-demuxer.ts';
import { createOutputCapture } from '@hookline/core/plugin';

/** One process to exec in a running container, as Docker takes it. */
export interface ExecSpec {
  readonly cmd: readonly string[];
  readonly env?: readonly string[];
  readonly user?: string;
  readonly workingDir?: string;
  readonly stdin?: string | Uint8Array;
  readonly maxOutputBytes: number;
  /**
   * Aborting calls `stop` once, which must end the exec's processes (the exec itself cannot be
   * killed through the API); the exec then resolves with `aborted` set.
   */
  readonly signal?: AbortSignal;
  readonly stop?: () => Promise<void>;
}

/** How the exec ended, as Docker tells it. */
export interface RawExecResult {
  /** Docker reports a process ended by signal N as exit code 128 + N; `null` if it never started. */
  readonly exitCode: number | null;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly aborted: boolean;
}

/**
 * After the main process exits, Docker keeps the output open until every process holding it closes
 * it (or 2 s pass). A hook ends when its main process does (like on the host): once inspect says it
 * exited, what it wrote arrives within this time, and a background process keeping the stream open
 * does not hold the hook.
 */
const OUTPUT_DRAIN_MS = 200;
/** Short execs end before the first look; longer ones are checked this often for their main process. */
const EXIT_POLL_MS = 250;
/** Pause between attempts to stop an exec that is still running after one. */
const STOP_RETRY_MS = 100;

/**
 * Runs one exec: creates it, attaches stdin/stdout/stderr (no TTY, so output is multiplexed and
 * stdout stays apart from stderr), writes stdin and closes it, captures each stream up to the cap
 * while draining the rest, and reads the exit code from the exec's inspect. Rejects only when Docker
 * refuses the exec, before anything ran (the container is gone or stopped: the error carries
 * Docker's `statusCode`); once the process has started it resolves, with exit code `null` when
 * Docker can no longer tell it.
 */
export async function runExec(container: Docker.Container, spec: ExecSpec): Promise<RawExecResult> {
  const stdout = createOutputCapture(spec.maxOutputBytes);
  const stderr = createOutputCapture(spec.maxOutputBytes);
  const result = (exitCode: number | null, aborted: boolean): RawExecResult => ({
    exitCode,
    stdout: stdout.bytes(),
    stderr: stderr.bytes(),
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    aborted,
  });
  if (spec.signal?.aborted) return result(null, true);

  const exec = await container.exec({
    Cmd: [...spec.cmd],
    ...(spec.env === undefined ? {} : { Env: [...spec.env] }),
    ...(spec.user === undefined ? {} : { User: spec.user }),
    ...(spec.workingDir === undefined ? {} : { WorkingDir: spec.workingDir }),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  if (spec.signal?.aborted) return result(null, true);
  const stream = await exec.start({ hijack: true, stdin: true });

  const demuxer = createFrameDemuxer({
    stdout: (payload) => stdout.write(payload),
    stderr: (payload) => stderr.write(payload),
  });
  const ended = new Promise<void>((resolve) => {
    stream.on('data', (chunk: Uint8Array) => demuxer.push(chunk));
    stream.once('end', resolve);
    stream.once('close', resolve);
    // A connection torn down under us ends the exec's output; the exit code still comes from inspect.
    // `on`, not `once`: stdin that the process never read may fail again (EPIPE) after the first error.
    stream.on('error', () => resolve());
  });
  // A process that never reads stdin must not break anything. What it leaves unread stays
  // queued on this connection, which would keep Node alive for minutes: see `waitForExit`.
  stream.end(spec.stdin ?? '');

  let exited = false;
  let stopping: Promise<void> | undefined;
  // An abort right after the start may come before the process exists, when there is nothing to find
  // yet; so the stop is repeated until the exec is over, not tried once.
  const onAbort = (): void => {
    stopping ??= (async () => {
      while (!exited) {
        await (spec.stop?.() ?? Promise.resolve()).catch(() => undefined);
        if (!exited) await sleep(STOP_RETRY_MS, undefined, { ref: false });
      }
    })();
  };
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  if (spec.signal?.aborted) onAbort();
  try {
    const exitCode = await waitForExit(exec, ended);
    exited = true;
    if (stopping !== undefined) await stopping;
    return result(exitCode, stopping !== undefined);
  } finally {
    exited = true;
    // The process is gone: stdin it did not read never will be, and output after the drain is a
    // leftover's. Closing the connection drops both; unsent stdin would keep Node alive for minutes.
    stream.destroy();
    spec.signal?.removeEventListener('abort', onAbort);
  }
}

async function waitForExit(exec: Docker.Exec, ended: Promise<void>): Promise<number | null> {
  let done = false;
  void ended.then(() => (done = true));
  while (!done) {
    // Unreferenced timers: the open stream keeps the process alive, a pending poll must not.
    const tick = await Promise.race([
      ended.then(() => 'ended' as const),
      sleep(EXIT_POLL_MS, 'tick' as const, { ref: false }),
    ]);
    if (tick === 'ended') break;
    const state = await exec.inspect().catch(() => undefined);
    if (state !== undefined && !state.Running) {
      // The main process is gone; give its last output time to arrive (the caller then stops listening to leftovers).
      await Promise.race([ended, sleep(OUTPUT_DRAIN_MS, undefined, { ref: false })]);
      return state.ExitCode;
    }
  }
  // The process ran: an exec that cannot be inspected any more (its container was removed) has no exit code, not an error.
  const state = await exec.inspect().catch(() => undefined);
  return state?.ExitCode ?? null;
}
