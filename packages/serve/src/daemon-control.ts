import { closeSync, openSync } from 'node:fs';
import { spawn } from 'node:child_process';
import process from 'node:process';
import { requestOverSocket } from './daemon-client.ts';
import { processAlive, readDaemonState, type DaemonState } from './daemon-state.ts';
import { ensurePrivateDir } from './private-files.ts';
import { ServeError } from './serve-error.ts';
import type { ServePaths } from './serve-paths.ts';

/** The running daemon's state and its `/status` answer, or undefined when none runs. */
export async function daemonStatus(paths: ServePaths): Promise<{ state: DaemonState; status: unknown } | undefined> {
  const state = readDaemonState(paths.stateFile);
  if (state === undefined) return undefined;
  const { status, body } = await requestOverSocket(state.socket, 'GET', '/status');
  if (status !== 200) {
    throw new ServeError(
      'HOOKLINE_SERVE_NO_ANSWER',
      `the daemon (pid ${state.pid}) answered status ${status}: ${body}`,
    );
  }
  return { state, status: JSON.parse(body) as unknown };
}

/**
 * Stops the running daemon with SIGTERM (it answers what it has, then exits) and waits until it is
 * gone; undefined when none ran. After `timeoutMs` it is killed.
 */
export async function stopDaemon(paths: ServePaths, timeoutMs = 60_000): Promise<DaemonState | undefined> {
  const state = readDaemonState(paths.stateFile);
  if (state === undefined) return undefined;
  process.kill(state.pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (processAlive(state.pid)) {
    if (Date.now() > deadline) {
      process.kill(state.pid, 'SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return state;
}

/**
 * Starts `command` (the daemon's own command line, without `--detach`) in its own session, its
 * output appended to the log file, and waits until it has written its state file and answers on its
 * socket. Rejects with the log's path when it exits first.
 */
export async function detachDaemon(
  command: readonly string[],
  paths: ServePaths,
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<DaemonState> {
  ensurePrivateDir(paths.stateDir);
  const log = openSync(paths.logFile, 'a', 0o600);
  const child = spawn(command[0]!, command.slice(1), { detached: true, stdio: ['ignore', log, log], env });
  closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.unref();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = readDaemonState(paths.stateFile);
    if (state !== undefined && state.pid === child.pid) {
      const health = await requestOverSocket(state.socket, 'GET', '/health').catch(() => undefined);
      if (health?.status === 200) return state;
    }
    if (exited !== undefined || Date.now() > deadline) {
      throw new ServeError(
        'HOOKLINE_SERVE_START_FAILED',
        `the daemon ${exited === undefined ? 'did not start in time' : `exited (code ${exited})`}; see ${paths.logFile}.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
