import { CommandStartError } from './command-start-error.ts';
import { mkdtemp } from './promised-fs.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/**
 * Where private directories for context files are tried, best first: the user's runtime directory,
 * then /dev/shm, then the OS temp directory. The first two are memory-backed on Linux, so a context
 * never reaches a disk, and creating and removing a file there costs microseconds instead of the
 * fraction of a millisecond a journaling filesystem takes per hook.
 */
export function privateDirectoryRoots(preferred: string | undefined): string[] {
  if (preferred !== undefined) return [preferred];
  const runtime = process.env['XDG_RUNTIME_DIR'];
  return [...(runtime ? [runtime] : []), ...(process.platform === 'linux' ? ['/dev/shm'] : []), tmpdir()];
}

/** Makes a fresh directory (mode 0700, random name) under the first root that allows it. */
export async function makePrivateDirectory(roots: readonly string[]): Promise<string> {
  if (roots.length === 0)
    throw new CommandStartError(
      'There is no directory to make a private directory in: set temporaryDirectory to a writable one.',
    );
  let lastError: unknown;
  for (const root of roots) {
    try {
      return await mkdtemp(join(root, 'hookline-'));
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
