import { commandLine } from './command-line.ts';
import { CommandStartError } from './command-start-error.ts';
import { describeStartFailure } from './describe-start-failure.ts';
import { createOutputCapture, type ExecRequest, type ExecResult, type OutputCapture } from '@hookline/core/plugin';
import { launchHere } from './launch-here.ts';
import type { Ending, LaunchedProcess, LaunchSpec } from './launched-process.ts';
import { terminateGroup } from './process-group.ts';
import { residentSpawner } from './resident-spawner-switch.ts';

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

/**
 * Runs one process in its own process group — the single implementation behind host hooks and the
 * local sandbox. Output is captured up to the cap without slowing or killing the process; stdin gets
 * the request's data and is closed, and a process that never reads it is fine (EPIPE is ignored). An
 * abort, and the main process's exit, end the whole group: SIGTERM, then SIGKILL after the grace. It
 * resolves once the main process has exited and the group is gone or was sent SIGKILL. It rejects with a
 * {@link CommandStartError} when the process cannot be started. The process is forked from this
 * process, or from the resident spawner when the host turned it on (`useResidentSpawner`).
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
  const spec: LaunchSpec = {
    file,
    args,
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    env: environment,
    ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
    ...(settings.passFds === undefined || settings.passFds.length === 0 ? {} : { passFds: settings.passFds }),
    limit,
    stdout,
    stderr,
    onStarted: (pid) => void request.onStarted?.(pid),
    ...(request.onStarted === undefined ? {} : { gate: request.onStarted }),
  };
  let child: LaunchedProcess;
  try {
    // Descriptors cannot be handed to the spawner: a launch that passes some forks from here.
    child = await ((spec.passFds === undefined ? residentSpawner()?.launch(spec) : undefined) ?? launchHere(spec));
  } catch (error) {
    if (CommandStartError.isInstance(error)) throw error;
    throw new CommandStartError(
      await describeStartFailure(error, { file: spec.file, args, cwd: request.cwd, path: environment['PATH'] }),
      { cause: error },
    );
  }

  const groupId = child.pid;
  let termination: Promise<void> | undefined;
  const stop = (): void => {
    termination ??= (settings.terminate ?? terminateGroup)(groupId, settings.killGraceMs);
  };
  request.signal?.addEventListener('abort', stop, { once: true });
  if (request.signal?.aborted) stop();
  try {
    let ending: Ending;
    try {
      ending = await child.ended;
    } catch (error) {
      // The exit can no longer be known (the spawner died): the group goes as it would after a timeout.
      await (termination ?? terminateGroup(groupId, settings.killGraceMs));
      throw error;
    }
    // The hook is over when its main process is: whatever it left in its group goes too, the
    // way a timeout ends it. A process meant to outlive the hook leaves the group with `setsid`.
    const leftovers = termination ?? terminateGroup(groupId, settings.killGraceMs);
    await drain(child);
    await leftovers;
    return result(ending, stdout, stderr, termination !== undefined);
  } finally {
    request.signal?.removeEventListener('abort', stop);
  }
}

async function drain(child: LaunchedProcess): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), OUTPUT_DRAIN_MS)));
  const timedOut = await Promise.race([child.closed.then(() => false), late]);
  clearTimeout(timer);
  if (timedOut) child.dropOutput();
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
