import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmdirSync } from 'node:fs';

/** The empty folder, root's own, that each exec of a root host stages its binds over (see `planBinds`). */
export interface StagingFolder {
  /** Its path, made (again) when missing or not what Hookline made. */
  current(): string;
  /** Removes a folder of this provider's own; the shared one stays for the next process. */
  remove(): void;
}

/** One folder for every Hookline process of a root host: each exec mounts its own private tmpfs on it. */
const SHARED = '/tmp/hookline-bwrap-stage';

/**
 * The staging folder of a root host: `/tmp/hookline-bwrap-stage`, in /tmp because every user may pass
 * through it (bwrap resolves the staged paths as nobody), mode 0755 and root's, so no other user can
 * put anything there. Each exec mounts a private tmpfs over it in its own mount namespace, so it stays
 * empty on the host and one folder serves every process. Checked before each use (a temp cleaner may
 * remove it from under a long-running host); where another user made that path first, a folder of
 * this provider's own (random name) is used instead.
 */
export function stagingFolder(): StagingFolder {
  let own: string | undefined;
  return {
    current() {
      if (usable(SHARED)) return SHARED;
      try {
        mkdirSync(SHARED, { mode: 0o755 });
        chmodSync(SHARED, 0o755);
      } catch {
        // Made meanwhile by another process (checked below), or by another user (not used).
      }
      if (usable(SHARED)) return SHARED;
      if (own === undefined || !usable(own)) {
        own = mkdtempSync('/tmp/hookline-bwrap-stage-');
        chmodSync(own, 0o755);
      }
      return own;
    },
    remove() {
      if (own === undefined) return;
      try {
        rmdirSync(own);
      } catch {
        // Gone already: nothing to remove.
      }
      own = undefined;
    },
  };
}

function usable(candidate: string): boolean {
  try {
    const stats = lstatSync(candidate);
    return stats.isDirectory() && stats.uid === 0 && (stats.mode & 0o777) === 0o755;
  } catch {
    return false;
  }
}
