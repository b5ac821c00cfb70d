import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { within } from './path-within.ts';

/** A hidden path that exists inside a bind: its real path (every link resolved) and its kind. */
export interface HiddenPath {
  readonly path: string;
  readonly directory: boolean;
}

/** One covered hidden path that is no longer where it was after an exec: moved through a folder above it, or swapped. */
export interface HiddenPathChange {
  readonly path: string;
  readonly change: 'removed' | 'replaced';
}

/** What a sandbox must cover for one exec, and the check to run after it. */
export interface HiddenPathsGuard {
  /**
   * The hidden paths that exist inside a bind, as real paths, outermost only: cover each with
   * something empty that cannot be read. A covered path is a mount point inside, which cannot be
   * renamed or removed there (EBUSY).
   */
  readonly covered: readonly HiddenPath[];
  /** The binds that lie inside a hidden path themselves (a cwd of `~/.ssh`): binding them would show it. */
  readonly insideHidden: ReadonlyArray<{ readonly root: string; readonly hiddenPath: string }>;
  /**
   * Compares every covered path with what it was before the exec. A folder above one can still be
   * renamed from inside a writable bind, which would leave the secret uncovered for the next hook:
   * each path that is gone or another object is listed.
   */
  settle(): HiddenPathChange[];
}

/**
 * Works out, before a sandboxed exec, which of the host's hidden paths (core's
 * `ProtectedPathsSettings.hiddenPaths`: the user's secrets, the journal key's folder) its binds
 * expose. `roots` are the real paths of every bind, readable or writable. A hidden path is followed
 * through its links, so a `~/.ssh` that links to a dotfiles folder is covered where it leads.
 */
export function guardHiddenPaths(roots: readonly string[], hiddenPaths: readonly string[]): HiddenPathsGuard {
  const found = new Map<string, { readonly directory: boolean; readonly identity: string }>();
  for (const path of hiddenPaths) {
    if (!isAbsolute(path)) continue;
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      // Absent (or a dangling link): nothing to show. A hook that creates it makes its own file.
      continue;
    }
    const stats = statSync(real, { throwIfNoEntry: false });
    if (stats === undefined || found.has(real)) continue;
    found.set(real, { directory: stats.isDirectory(), identity: `${stats.dev}:${stats.ino}` });
  }
  const insideHidden: Array<{ root: string; hiddenPath: string }> = [];
  for (const root of roots) {
    const holder = [...found.keys()].find((hidden) => within(root, hidden));
    if (holder !== undefined) insideHidden.push({ root, hiddenPath: holder });
  }
  const exposed = [...found].filter(([path]) => roots.some((root) => within(path, root)));
  const outermost = exposed.filter(([path]) => !exposed.some(([other]) => other !== path && within(path, other)));
  return {
    covered: outermost.map(([path, { directory }]) => ({ path, directory })),
    insideHidden,
    settle: () =>
      outermost.flatMap(([path, before]): HiddenPathChange[] => {
        const now = statSync(path, { throwIfNoEntry: false });
        if (now === undefined) return [{ path, change: 'removed' }];
        return `${now.dev}:${now.ino}` === before.identity ? [] : [{ path, change: 'replaced' }];
      }),
  };
}

/** A readable account of covered hidden paths a hook moved, for the hook's failure: what, and what to do. */
export function describeHiddenPathChanges(provider: string, changes: readonly HiddenPathChange[]): string {
  const lines = changes.map((change) =>
    change.change === 'removed'
      ? `${change.path} is gone (a folder above it was renamed or removed); find where it went and put it back`
      : `${change.path} is another file now (a folder above it was swapped); find the original and put it back`,
  );
  return `the hook moved what the ${provider} sandbox keeps unreadable (your secrets, the journal key), so it failed, and a later hook could read it where it is now: ${lines.join('; ')}. If it may have been read meanwhile, replace it (for the journal key, move it aside to have a new one made).`;
}
