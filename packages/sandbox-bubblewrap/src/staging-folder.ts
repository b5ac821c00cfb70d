import { chmodSync, lstatSync, mkdtempSync, rmdirSync } from 'node:fs';

/** The empty folder, root's own, that each exec of a root host stages its binds over (see `planBinds`). */
export interface StagingFolder {
  /** Its path, made again when a temp cleaner removed it or it is not what Hookline made. */
  current(): string;
  /** Removes it; a later `current()` makes a new one. */
  remove(): void;
}

/**
 * A staging folder in /tmp, which every user may pass through (bwrap resolves the staged paths as
 * nobody): mode 0755 and root's, so no other user can put anything there. Each exec mounts a private
 * tmpfs over it in its own mount namespace, so it stays empty on the host. Checked before each use:
 * a long-running host outlives temp cleaners, and a folder that is not a root-owned 0755 directory
 * any more (another user's, a link) is never used.
 */
export function stagingFolder(): StagingFolder {
  let path: string | undefined;
  const usable = (candidate: string): boolean => {
    try {
      const stats = lstatSync(candidate);
      return stats.isDirectory() && stats.uid === 0 && (stats.mode & 0o777) === 0o755;
    } catch {
      return false;
    }
  };
  return {
    current() {
      if (path === undefined || !usable(path)) {
        path = mkdtempSync('/tmp/hookline-bwrap-stage-');
        chmodSync(path, 0o755);
      }
      return path;
    },
    remove() {
      if (path === undefined) return;
      try {
        rmdirSync(path);
      } catch {
        // Gone already, or something is mounted on it in a namespace still ending: a temp cleaner will do.
      }
      path = undefined;
    },
  };
}
