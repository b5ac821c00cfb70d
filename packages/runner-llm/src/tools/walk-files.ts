import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isInside } from './confine-path.ts';

/** Directories a search does not enter unless it starts inside them: they are large and rarely the point. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** A regular file found under the working directory. */
export interface WalkedFile {
  /** Its real path, to read. */
  readonly path: string;
  /** Its path relative to the working directory, with `/` separators, to show and to match globs against. */
  readonly relative: string;
}

/** Bounds of one walk; `truncated` is set when it stopped at `maxEntries`. */
export interface WalkState {
  readonly maxEntries: number;
  truncated: boolean;
}

/**
 * The regular files under `start` (a real path inside `root`), in a stable order, depth first.
 * Symbolic links to files are listed only when their target is inside `root`; links to directories
 * are not entered (no escapes, no cycles). Stops at `maxEntries` directory entries.
 */
export async function* walkFiles(root: string, start: string, state: WalkState): AsyncGenerator<WalkedFile> {
  const first = await stat(start);
  if (first.isFile()) {
    yield { path: start, relative: toPosix(relative(root, start)) };
    return;
  }
  const pending = [start];
  let seen = 0;
  while (pending.length > 0) {
    const directory = pending.pop()!;
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: string[] = [];
    for (const entry of entries) {
      if (++seen > state.maxEntries) {
        state.truncated = true;
        return;
      }
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) subdirectories.push(path);
      } else if (entry.isFile()) {
        yield { path, relative: toPosix(relative(root, path)) };
      } else if (entry.isSymbolicLink()) {
        const target = await linkedFile(root, path);
        if (target !== undefined) yield { path: target, relative: toPosix(relative(root, path)) };
      }
    }
    // Reversed so the stack pops them in name order.
    pending.push(...subdirectories.reverse());
  }
}

async function linkedFile(root: string, link: string): Promise<string | undefined> {
  try {
    const target = await realpath(link);
    if (!isInside(root, target)) return undefined;
    return (await stat(target)).isFile() ? target : undefined;
  } catch {
    return undefined;
  }
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
