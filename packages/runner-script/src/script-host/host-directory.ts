import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/**
 * The folder that holds script hosts' sockets, pid files and logs: `HOOKLINE_SCRIPT_HOST_DIR`, else
 * `$XDG_RUNTIME_DIR/hookline` (per user, on a tmpfs, emptied at logout), else `<tmpdir>/hookline-<uid>`.
 */
export function scriptHostDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const chosen = env['HOOKLINE_SCRIPT_HOST_DIR'];
  if (chosen !== undefined && chosen !== '') return chosen;
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime !== undefined && runtime !== '') return join(runtime, 'hookline');
  return join(tmpdir(), `hookline-${process.getuid?.() ?? 'user'}`);
}

/**
 * Makes `folder` (mode 0700) when it is missing, and returns why it must not be used when it is not
 * private: a symlink, not a folder, owned by someone else, or open to the group or others. Anyone who
 * can write there could put a socket of their own where the CLI sends its hooks' context.
 */
export function privateDirectoryProblem(folder: string): string | undefined {
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return `${folder} cannot be created (${(error as Error).message})`;
  }
  const info = lstatSync(folder);
  const uid = process.getuid?.();
  if (info.isSymbolicLink()) return `${folder} is a symbolic link; remove it (the CLI makes the folder itself, mode 0700)`;
  if (!info.isDirectory()) return `${folder} is not a folder; remove it (the CLI makes the folder itself, mode 0700)`;
  if (uid !== undefined && info.uid !== uid) return `${folder} belongs to uid ${info.uid}, not to this user (uid ${uid}); remove it or set HOOKLINE_SCRIPT_HOST_DIR to a folder of your own`;
  if ((info.mode & 0o077) !== 0) return `${folder} is open to other users (mode ${(info.mode & 0o777).toString(8)}); run \`chmod 700 ${folder}\``;
  return undefined;
}
