import { closeSync, fstatSync, openSync } from 'node:fs';
import {
  guardHiddenPaths,
  guardProtectedPaths,
  within,
  type HiddenPathsGuard,
  type ProtectedPathsGuard,
} from '@hookline/runner-command/protected-paths';
import { BubblewrapPathError } from './bubblewrap-path-error.ts';
import { coversSystem } from './host-layout.ts';
import { openHostPath, type OpenedPath } from './open-host-path.ts';

/** A context file held open, to be copied into the sandbox from its descriptor. */
export interface OpenedFile {
  readonly fd: number;
  readonly mode: number;
}

/** What one exec binds, each held open (the descriptors are the host's), and the check to run after it. */
export interface OpenBinds {
  /** The working directory's real path. */
  readonly cwd: string;
  readonly readable: readonly OpenedPath[];
  /** The `writable` settings, then the working directory. */
  readonly writable: readonly OpenedPath[];
  readonly protected: readonly OpenedPath[];
  /** Context files by the path inside. */
  readonly files: ReadonlyMap<string, OpenedFile>;
  /** What to cover with something empty and unreadable, by real path: folders, and files with an empty descriptor (`/dev/null`) for each. */
  readonly hidden: readonly HiddenCover[];
  /** The check to run once the exec ended; see {@link ProtectedPathsGuard.settle}. */
  readonly guard: ProtectedPathsGuard;
  /** The check of the covered hidden paths once the exec ended; see {@link HiddenPathsGuard.settle}. */
  readonly hiddenGuard: HiddenPathsGuard;
  /** Closes every descriptor. */
  close(): void;
}

/** A hidden path to cover: a folder gets an empty tmpfs, a file an empty copy of `fd` (bwrap's fd, once planned). */
export type HiddenCover =
  | { readonly path: string; readonly directory: true }
  | { readonly path: string; readonly directory: false; readonly fd: number };

/** The paths of one exec, as the host asks for them. */
export interface BindRequest {
  readonly cwd: string;
  readonly writable: readonly string[];
  readonly readable: readonly string[];
  /** Absolute host paths the host protects besides the protected names (config files, journal, plugins). */
  readonly protectedPaths: readonly string[];
  /** Absolute host paths no hook may read (secrets, the journal key's folder): covered wherever they lie inside a bind. */
  readonly hiddenPaths?: readonly string[];
  /** Context files: host path by the path inside. */
  readonly files: ReadonlyMap<string, string>;
  /** The host identity bwrap runs as, when not Hookline's own (root's): the working directory must let it in. */
  readonly user?: { readonly uid: number; readonly gid: number };
}

/**
 * Opens everything one exec binds, each path resolved (every link followed) as it is opened and
 * checked as resolved: the working directory, `writable` and `readable` must not resolve to `/` or
 * cover a system directory, and no writable one may lie inside a protected path. The protected paths
 * inside the writable ones are opened without following links, each checked to be where it was
 * found. The hidden paths inside any bind are to be covered; a bind inside one is refused. Rejects
 * with a {@link BubblewrapPathError} naming the resolved path; closes what it opened then.
 */
export function openBinds(request: BindRequest): OpenBinds {
  const held: number[] = [];
  const hold = <T extends { readonly fd: number }>(opened: T): T => {
    held.push(opened.fd);
    return opened;
  };
  try {
    const open = (path: string, what: string): OpenedPath => {
      const opened = hold(openHostPath(path, what));
      if (coversSystem(opened.path)) {
        const via = opened.path === path ? '' : ` (${path} resolves to it through a link)`;
        throw new BubblewrapPathError(
          `the bubblewrap sandbox does not bind ${opened.path}${via} as the ${what}: it is / or holds system directories, which would be bound over the sandbox's own; give it a folder of its own (a project folder).`,
        );
      }
      return opened;
    };
    const cwd = open(request.cwd, 'working directory');
    if (!cwd.directory)
      throw new BubblewrapPathError(`the bubblewrap sandbox cannot run a hook in ${cwd.path}: it is not a folder.`);
    if (request.user !== undefined && !mayEnter(fstatSync(cwd.fd), request.user)) {
      throw new BubblewrapPathError(
        `the bubblewrap sandbox cannot run a hook in ${cwd.path}: Hookline runs as root, so hooks run as uid ${request.user.uid} (nobody) on the host too, and it may not enter that folder; allow it (chmod o+x, or chown ${request.user.uid}:${request.user.gid} for a folder the hook may also write), or give the hook another cwd.`,
      );
    }
    const readable = request.readable.map((path) => open(path, 'readable path'));
    const writable = [...request.writable.map((path) => open(path, 'writable path')), cwd];
    // First: a bind inside a secret is refused as that, though it may be protected too.
    const hiddenGuard = guardHiddenPaths(
      [...readable, ...writable].map((bind) => bind.path),
      request.hiddenPaths ?? [],
    );
    const hiddenHolder = hiddenGuard.insideHidden[0];
    if (hiddenHolder !== undefined) {
      throw new BubblewrapPathError(
        `the bubblewrap sandbox does not bind ${hiddenHolder.root}: it lies inside ${hiddenHolder.hiddenPath}, which hooks must not read (your secrets, or the journal key that seals durable hooks' entries). Give the hook another folder, or run it with sandbox = false if it must read it.`,
      );
    }
    const guard = guardProtectedPaths(
      writable.map((bind) => bind.path),
      request.protectedPaths,
    );
    const inside = guard.insideProtected[0];
    if (inside !== undefined) {
      throw new BubblewrapPathError(
        `the bubblewrap sandbox does not bind ${inside.root} writable: it lies inside ${inside.protectedPath}, which decides what runs outside the sandbox later (Hookline's config, journal or plugins, a coding agent's settings, version control hooks). Give the hook another folder, list it under readable, or run it with sandbox = false if it must change it.`,
      );
    }
    const hidden: HiddenCover[] = hiddenGuard.covered.map((cover) =>
      cover.directory
        ? { path: cover.path, directory: true }
        : { path: cover.path, directory: false, fd: hold({ fd: openSync('/dev/null', 'r') }).fd },
    );
    // A protected path under a hidden cover needs no read-only bind: the cover is read-only and cannot
    // be moved, and a bind under it would not be the object the sandbox's check expects to see.
    const toProtect = guard.existing.filter((path) => !hidden.some((cover) => within(path, cover.path)));
    const protectedBinds = toProtect.map((path) => {
      const opened = hold(openHostPath(path, 'protected path', false));
      if (opened.path !== path)
        throw new BubblewrapPathError(
          `the bubblewrap sandbox cannot protect ${path}: it moved to ${opened.path} while the sandbox was being made; try again.`,
        );
      return opened;
    });
    const files = new Map<string, OpenedFile>();
    for (const [visible, host] of request.files) {
      const fd = hold({ fd: openSync(host, 'r') }).fd;
      files.set(visible, { fd, mode: fstatSync(fd).mode & 0o777 });
    }
    return {
      cwd: cwd.path,
      readable,
      writable,
      protected: protectedBinds,
      files,
      hidden,
      guard,
      hiddenGuard,
      close: () => closeAll(held),
    };
  } catch (error) {
    closeAll(held);
    throw error;
  }
}

// Search permission on a folder for a user with no supplementary groups, as the kernel decides it.
function mayEnter(
  stats: { readonly uid: number; readonly gid: number; readonly mode: number },
  user: { readonly uid: number; readonly gid: number },
): boolean {
  if (stats.uid === user.uid) return (stats.mode & 0o100) !== 0;
  if (stats.gid === user.gid) return (stats.mode & 0o010) !== 0;
  return (stats.mode & 0o001) !== 0;
}

function closeAll(fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing to free.
    }
  }
}
