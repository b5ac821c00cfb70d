import { lstatSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

/**
 * Where the CLI's sandboxes (through `ProtectedPathsSettings.onWatch`) announce the protected paths
 * that did not exist when a hook started — which the hook could create before it ends and the file
 * is moved aside — so that a Hookline process started meanwhile does not load one: `/tmp/hookline-watch-<uid>`, the same for every process of the user
 * whatever its TMPDIR, never inside a sandbox (bubblewrap's `/tmp` is private; docker mounts only what
 * it is given). Owned by the user and 0700, or not used.
 */
export function watchDirectory(): string {
  return `/tmp/hookline-watch-${process.getuid?.() ?? 'user'}`;
}

/**
 * Announces that `paths` (real paths that do not exist now) are watched while a sandboxed hook runs;
 * returns the function that withdraws it once the exec was settled. Best effort: where the folder
 * cannot be made safely, nothing is announced (the check after the exec still holds).
 */
export function announceWatch(paths: readonly string[]): () => void {
  if (paths.length === 0) return () => undefined;
  const directory = watchDirectory();
  let file: string;
  try {
    mkdirSync(directory, { mode: 0o700, recursive: true });
    const folder = lstatSync(directory);
    if (!folder.isDirectory() || folder.uid !== process.getuid?.() || (folder.mode & 0o077) !== 0) return () => undefined;
    file = join(directory, `${process.pid}-${++announced}.json`);
    writeFileSync(file, JSON.stringify({ pid: process.pid, paths }), { mode: 0o600 });
  } catch {
    return () => undefined;
  }
  return () => {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: nothing to withdraw.
    }
  };
}

let announced = 0;

/**
 * The process whose sandboxed hook may be writing `path` (a real path) right now — a running Hookline
 * process that announced it — or `undefined`. Announcements of processes that are gone are ignored.
 */
export function watchingProcess(path: string): number | undefined {
  let names: string[];
  try {
    names = readdirSync(watchDirectory());
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      const entry = JSON.parse(readFileSync(join(watchDirectory(), name), 'utf8')) as { pid?: unknown; paths?: unknown };
      if (typeof entry.pid !== 'number' || !Array.isArray(entry.paths) || !entry.paths.includes(path)) continue;
      if (entry.pid !== process.pid && isAlive(entry.pid)) return entry.pid;
    } catch {
      // Withdrawn while being read, or not ours to understand.
    }
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
