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
    if (!folder.isDirectory() || folder.uid !== process.getuid?.() || (folder.mode & 0o077) !== 0)
      return () => undefined;
    file = join(directory, `${process.pid}-${++announced}.json`);
    writeFileSync(file, JSON.stringify({ pid: process.pid, start: startTime(process.pid), paths }), { mode: 0o600 });
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
    const file = join(watchDirectory(), name);
    try {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; start?: unknown; paths?: unknown };
      if (typeof entry.pid !== 'number' || entry.pid === process.pid) continue;
      // Left by a process that is gone (killed during a hook): its hook is over, and so is the watch.
      if (!isRunning(entry.pid, typeof entry.start === 'string' ? entry.start : undefined)) {
        unlinkSync(file);
        continue;
      }
      if (Array.isArray(entry.paths) && entry.paths.includes(path)) return entry.pid;
    } catch {
      // Withdrawn while being read, or not ours to understand.
    }
  }
  return undefined;
}

// Whether the process that announced is still running: its pid, and the start time it recorded, so a
// later process that got the same pid does not count.
function isRunning(pid: number, start: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTime(pid);
  return start === undefined || now === undefined || now === start;
}

// Field 22 of /proc/PID/stat, the process's start in clock ticks since boot; after the command
// name, which may hold spaces and parentheses, so counted from its closing parenthesis.
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
