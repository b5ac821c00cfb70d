import { rmSync } from 'node:fs';
import process from 'node:process';
import { readOptionalFile, writePrivateFile } from './private-files.ts';

/** What a running daemon writes to `serve.json` once it listens. */
export interface DaemonState {
  readonly pid: number;
  /** The TCP port on 127.0.0.1. */
  readonly port: number;
  readonly socket: string;
  readonly startedAt: string;
  readonly version: string;
}

export function writeDaemonState(stateFile: string, state: DaemonState): void {
  writePrivateFile(stateFile, `${JSON.stringify(state, null, 2)}\n`);
}

/** The state file's content when it names a process that is alive; a stale file is removed. */
export function readDaemonState(stateFile: string): DaemonState | undefined {
  const text = readOptionalFile(stateFile);
  if (text === undefined) return undefined;
  let state: Partial<DaemonState>;
  try {
    state = JSON.parse(text) as Partial<DaemonState>;
  } catch {
    return undefined;
  }
  if (typeof state.pid !== 'number' || typeof state.port !== 'number' || typeof state.socket !== 'string')
    return undefined;
  if (!processAlive(state.pid)) {
    rmSync(stateFile, { force: true });
    return undefined;
  }
  return state as DaemonState;
}

/** Removes the state file when it is this process's (a newer daemon may have replaced it). */
export function removeOwnDaemonState(stateFile: string): boolean {
  const text = readOptionalFile(stateFile);
  if (text === undefined) return false;
  try {
    if ((JSON.parse(text) as Partial<DaemonState>).pid !== process.pid) return false;
  } catch {
    // Not ours to judge: leave it.
    return false;
  }
  rmSync(stateFile, { force: true });
  return true;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
