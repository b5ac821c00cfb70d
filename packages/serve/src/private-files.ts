import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import process from 'node:process';
import { ServeError } from './serve-error.ts';

/**
 * Creates `dir` (and its parents) mode 0700, and refuses one that another user owns or others may
 * write to: the token, the trust records and the socket must never be reachable by anyone else.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : stat.uid;
  if (!stat.isDirectory() || stat.uid !== uid) {
    throw new ServeError(
      'HOOKLINE_SERVE_UNSAFE_DIR',
      `${dir} is not a folder owned by this user; remove it (or set XDG_STATE_HOME / XDG_RUNTIME_DIR elsewhere) and start again.`,
    );
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Writes `text` to `file` mode 0600, whole or not at all (a temporary file renamed over it). */
export function writePrivateFile(file: string, text: string): void {
  ensurePrivateDir(dirname(file));
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** The text of `file`, or undefined when it does not exist. */
export function readOptionalFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ServeError(
      'HOOKLINE_SERVE_UNREADABLE',
      `${file} cannot be read (${String(error)}); check its permissions.`,
      {
        cause: error,
      },
    );
  }
}
