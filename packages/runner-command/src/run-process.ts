import { spawn, type ChildProcessWithoutNullStreams, type StdioOptions } from 'node:child_process';
import { commandLine } from './command-line.ts';
import { CommandStartError } from './command-start-error.ts';
import { describeStartFailure } from './describe-start-failure.ts';
import { createOutputCapture, type ExecRequest, type ExecResult, type OutputCapture } from '@hookline/core/plugin';
import { terminateGroup } from './process-group.ts';

/** How {@link runProcess} runs what it is asked to. */
export interface ProcessSettings {
  /** The base environment; the request's variables are added on top of it. */
  readonly environment: Readonly<Record<string, string>>;
  /** Time between SIGTERM and SIGKILL to the process group when the request is aborted. */
  readonly killGraceMs: number;
  /** Capture cap per stream when the request sets none. */
  readonly maxOutputBytes: number;
  /**
   * Ends the process when the request is aborted; default {@link terminateGroup} on its process group
   * (SIGTERM, the grace, SIGKILL). A sandbox whose process is a launcher (bwrap) ends it its own way.
   */
  readonly terminate?: (pid: number, graceMs: number) => Promise<void>;
  /**
   * Open descriptors the process gets besides stdio, as its fds 3, 4, …: a sandbox launcher binds
   * what the host opened and checked (bwrap's `--bind-fd`), so nothing can swap it in between.
   */
  readonly passFds?: readonly number[];
}

/**
 * How long output is still read once the main process has exited. What it wrote is already in the
 * pipe by then; a pipe that stays open longer is held by a background process that inherited it,
 * and the hook is over without waiting for that process.
 */
const OUTPUT_DRAIN_MS = 200;

interface Ending {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * Runs one process in its own process group — the single implementation behind host hooks and the
 * local sandbox. Output is captured up to the cap without slowing or killing the process; stdin gets
 * the request's data and is closed, and a process that never reads it is fine (EPIPE is ignored). An
 * abort, and the main process's exit, end the whole group: SIGTERM, then SIGKILL after the grace. It
 * resolves once the main process has exited and the group is gone or was sent SIGKILL. It rejects with a
 * {@link CommandStartError} when the process cannot be started.
 */
export async function runProcess(request: ExecRequest, settings: ProcessSettings): Promise<ExecResult> {
  const limit = request.maxOutputBytes ?? settings.maxOutputBytes;
  const stdout = createOutputCapture(limit);
  const stderr = createOutputCapture(limit);
  if (request.signal?.aborted) return result({ code: null, signal: null }, stdout, stderr, true);

  const [file, ...args] = commandLine(request);
  const environment = { ...settings.environment, ...request.env };
  // libuv hands a child its stdio as sockets, not pipes, and bash takes a socket on stdin for a
  // sign that sshd started it: at SHLVL < 2 it then sources ~/.bashrc, even for `bash -c` (the
  // agent preset's shell). A host without SHLVL (a service, a container) would run every hook
  // through the user's .bashrc; SHLVL=1 makes bash behave as it does when started from a terminal.
  environment['SHLVL'] ??= '1';
  let child: ChildProcessWithoutNullStreams;
  try {
    // detached: the child calls setsid(), so its pid is the id of a new process group that we can signal as a whole.
    const stdio: StdioOptions =
      settings.passFds === undefined || settings.passFds.length === 0
        ? 'pipe'
        : ['pipe', 'pipe', 'pipe', ...settings.passFds];
    child = spawn(file, args, {
      cwd: request.cwd,
      env: environment,
      detached: true,
      stdio,
    }) as ChildProcessWithoutNullStreams;
  } catch (error) {
    throw new CommandStartError(
      await describeStartFailure(error, { file, args, cwd: request.cwd, path: environment['PATH'] }),
      { cause: error },
    );
  }

  // Told at once, before the child has run far: a journal records the group before a crash can leave it behind unrecorded.
  if (child.pid !== undefined) request.onStarted?.(child.pid);
  const ended = new Promise<Ending>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  collect(child, stdout, stderr);
  feed(child, request.stdin);
  try {
    await started(child);
  } catch (error) {
    throw new CommandStartError(
      await describeStartFailure(error, { file, args, cwd: request.cwd, path: environment['PATH'] }),
      { cause: error },
    );
  }
  // Errors after a successful start (a stream torn down early) must not crash the host.
  child.on('error', () => undefined);

  const groupId = child.pid!;
  let termination: Promise<void> | undefined;
  const stop = (): void => {
    termination ??= (settings.terminate ?? terminateGroup)(groupId, settings.killGraceMs);
  };
  request.signal?.addEventListener('abort', stop, { once: true });
  if (request.signal?.aborted) stop();
  try {
    const ending = await ended;
    // The hook is over when its main process is: whatever it left in its group goes too, the
    // way a timeout ends it. A process meant to outlive the hook leaves the group with `setsid`.
    const leftovers = termination ?? terminateGroup(groupId, settings.killGraceMs);
    await drain(child, closed);
    await leftovers;
    return result(ending, stdout, stderr, termination !== undefined);
  } finally {
    request.signal?.removeEventListener('abort', stop);
  }
}

function collect(child: ChildProcessWithoutNullStreams, stdout: OutputCapture, stderr: OutputCapture): void {
  child.stdout.on('data', (chunk: Uint8Array) => stdout.write(chunk));
  child.stderr.on('data', (chunk: Uint8Array) => stderr.write(chunk));
  child.stdout.on('error', () => undefined);
  child.stderr.on('error', () => undefined);
}

function feed(child: ChildProcessWithoutNullStreams, data: string | Uint8Array | undefined): void {
  // A hook that exits without reading its stdin breaks the pipe; that EPIPE is not an error.
  child.stdin.on('error', () => undefined);
  if (data === undefined) child.stdin.end();
  else child.stdin.end(data);
}

function started(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve, reject) => {
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    const onError = (error: Error): void => {
      child.off('spawn', onSpawn);
      reject(error);
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
}

async function drain(child: ChildProcessWithoutNullStreams, closed: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), OUTPUT_DRAIN_MS)));
  const timedOut = await Promise.race([closed.then(() => false), late]);
  clearTimeout(timer);
  if (timedOut) {
    child.stdout.destroy();
    child.stderr.destroy();
  }
}

function result(ending: Ending, stdout: OutputCapture, stderr: OutputCapture, aborted: boolean): ExecResult {
  return {
    exitCode: ending.code,
    signal: ending.signal,
    stdout: stdout.bytes(),
    stderr: stderr.bytes(),
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    aborted,
  };
}
