import { closeSync, constants, fstatSync, openSync, readlinkSync } from 'node:fs';
import { BubblewrapPathError } from './bubblewrap-path-error.ts';

/** A host path held open: what bwrap binds (`--bind-fd`) is this very object, whatever the path names later. */
export interface OpenedPath {
  readonly fd: number;
  /** Where the object really is: the kernel's path for the descriptor, every link resolved. */
  readonly path: string;
  readonly directory: boolean;
  /** The object's identity (device and inode), which a bind made from its path must show. */
  readonly identity: string;
}

/**
 * Opens a directory or regular file to bind it: following links unless `follow` is false (a
 * protected path must be the object itself, not where a link planted since points). The path to
 * check is read back from the open descriptor (`/proc/self/fd/N`), so no link swapped in between a
 * check and bwrap's mount can change what is bound. Never blocks (a FIFO) or takes a terminal.
 */
export function openHostPath(path: string, what: string, follow = true): OpenedPath {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (follow ? 0 : constants.O_NOFOLLOW),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'ELOOP'
          ? 'became a link while the sandbox was being made'
          : `cannot be opened (${code ?? String(error)})`;
    throw new BubblewrapPathError(
      `the bubblewrap sandbox cannot bind the ${what} ${path}: it ${why}; create it, or correct the path.`,
      { cause: error },
    );
  }
  try {
    const stats = fstatSync(fd);
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    if (!stats.isDirectory() && !stats.isFile())
      throw new BubblewrapPathError(
        `the bubblewrap sandbox binds only folders and regular files, and the ${what} ${path} (${real}) is neither.`,
      );
    if (!real.startsWith('/') || real.endsWith(' (deleted)'))
      throw new BubblewrapPathError(
        `the bubblewrap sandbox cannot bind the ${what} ${path}: it was removed while the sandbox was being made.`,
      );
    // The bound paths are checked again inside the sandbox as a list of lines.
    if (real.includes('\n'))
      throw new BubblewrapPathError(
        `the bubblewrap sandbox does not bind ${JSON.stringify(real)} (the ${what}): its path holds a line break.`,
      );
    return { fd, path: real, directory: stats.isDirectory(), identity: `${stats.dev}:${stats.ino}` };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
