import { access, stat } from './promised-fs.ts';
import { constants } from 'node:fs';
import { messageOf } from '@hookline/core/plugin';

/** What the start failure was about, for a message that names the real cause. */
export interface StartAttempt {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** The `PATH` the program was looked up in. */
  readonly path?: string;
}

/**
 * Turns a spawn error (or the resident spawner's report of one) into a message naming its cause.
 * `spawn` reports a missing working directory with the same ENOENT as a missing program, so the
 * directory is examined first: a hook whose `cwd` is gone must say so rather than blame the shell.
 */
export async function describeStartFailure(error: unknown, attempt: StartAttempt): Promise<string> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (attempt.cwd !== undefined) {
    const problem = await directoryProblem(attempt.cwd);
    if (problem !== undefined) return problem;
  }
  const program = JSON.stringify(attempt.file);
  // exec(2) takes C strings: a NUL byte cannot be passed, and Node refuses before trying.
  if ([attempt.file, ...attempt.args].some((part) => part.includes('\0')))
    return `cannot start ${program}: the command contains a NUL byte, which no process argument can hold`;
  if (code === 'ENOENT') {
    return attempt.file.includes('/')
      ? `cannot start ${program}: no such file`
      : `cannot start ${program}: not found on PATH (${attempt.path === undefined ? 'PATH is not set' : `PATH=${attempt.path}`})`;
  }
  if (code === 'EACCES') return `cannot start ${program}: permission denied`;
  return `cannot start ${program}: ${messageOf(error)}`;
}

async function directoryProblem(cwd: string): Promise<string | undefined> {
  const named = `the working directory ${JSON.stringify(cwd)}`;
  try {
    if (!(await stat(cwd)).isDirectory()) return `${named} is not a directory`;
    await access(cwd, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${named} does not exist`;
    return `${named} cannot be entered (${code ?? String(error)})`;
  }
}
