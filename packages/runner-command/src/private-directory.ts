import { CommandStartError } from './command-start-error.ts';
import { mkdtemp } from './promised-fs.ts';
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

// statfs(2) filesystem types that keep files in memory: tmpfs and ramfs.
const MEMORY_FILESYSTEMS: ReadonlySet<number> = new Set([0x01021994, 0x858458f6]);

/**
 * Where private directories for context files are tried, best first: the user's runtime directory,
 * then /dev/shm, then the OS temp directory. The first two are memory-backed on Linux, so a context
 * never reaches a disk, and creating and removing a file there costs microseconds instead of the
 * fraction of a millisecond a journaling filesystem takes per hook. A runtime directory that is on a
 * disk all the same (set by hand where no login manager makes one, or by a test) comes after
 * /dev/shm: a context file there would be both slower and written to the disk.
 */
export function privateDirectoryRoots(preferred: string | undefined): string[] {
  if (preferred !== undefined) return [preferred];
  const runtime = process.env['XDG_RUNTIME_DIR'] || undefined;
  if (process.platform !== 'linux') return [...(runtime === undefined ? [] : [runtime]), tmpdir()];
  if (runtime === undefined) return ['/dev/shm', tmpdir()];
  return onDisk(runtime) ? ['/dev/shm', runtime, tmpdir()] : [runtime, '/dev/shm', tmpdir()];
}

// The answer per directory, asked once: a process's runtime directory does not move to another filesystem.
const diskBacked = new Map<string, boolean>();

/** Whether `directory` is on a filesystem that is not memory-backed; false when that cannot be told. */
function onDisk(directory: string): boolean {
  let answer = diskBacked.get(directory);
  if (answer === undefined) {
    try {
      answer = !MEMORY_FILESYSTEMS.has(statfsSync(directory).type);
    } catch {
      // Missing or unreadable: leave the order as it was; making the directory reports the problem.
      return false;
    }
    diskBacked.set(directory, answer);
  }
  return answer;
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
