import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { messageOf } from '@hookline/core/plugin';
import { errorCode } from './error-text.ts';

/** An open regular file and its status, or why it was not opened (text for the model). */
export type OpenedFile =
  | { readonly ok: true; readonly file: FileHandle; readonly stats: Stats }
  | { readonly ok: false; readonly error: string; readonly missing?: boolean };

/**
 * Opens `path` (an already confined, resolved path) for reading or writing, but only a regular file
 * — and never in a way that can block. `open()` on a FIFO waits for the other end, and it waits on
 * one of libuv's four threadpool threads: four such opens freeze every file and DNS operation of the
 * process, and nothing can cancel them. So the type is checked with `lstat` first (FIFOs, sockets and
 * devices are refused without being opened), and the open itself carries `O_NONBLOCK` (a FIFO that
 * appeared in between opens at once, or fails with ENXIO) and `O_NOFOLLOW`; `fstat` on the descriptor
 * then decides. Writing opens without `O_TRUNC` and truncates only once the file is known to be regular.
 *
 * `shown` is the path as the model gave it, for the refusal text.
 */
export async function openRegularFile(path: string, shown: string, mode: 'read' | 'write'): Promise<OpenedFile> {
  try {
    const before = await lstat(path);
    if (!before.isFile()) return notRegular(shown, fileKind(before));
  } catch (error) {
    if (mode === 'read' || errorCode(error) !== 'ENOENT')
      return { ok: false, error: `cannot open ${JSON.stringify(shown)}: ${messageOf(error)}` };
  }
  const flags =
    (mode === 'read' ? constants.O_RDONLY : constants.O_WRONLY | constants.O_CREAT) |
    constants.O_NONBLOCK |
    constants.O_NOFOLLOW;
  let file: FileHandle;
  try {
    file = await open(path, flags, 0o644);
  } catch (error) {
    return { ok: false, error: `cannot open ${JSON.stringify(shown)}: ${messageOf(error)}` };
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) {
      await file.close();
      return notRegular(shown, fileKind(stats));
    }
    if (mode === 'write') await file.truncate(0);
    return { ok: true, file, stats };
  } catch (error) {
    await file.close().catch(() => undefined);
    return { ok: false, error: `cannot open ${JSON.stringify(shown)}: ${messageOf(error)}` };
  }
}

/** The kinds of file the tools refuse, as both the host's `fstat` and the sandbox's `test` tell them. */
export type FileKind =
  'directory' | 'fifo' | 'socket' | 'character-device' | 'block-device' | 'symbolic-link' | 'other';

const KIND_TEXTS: Readonly<Record<FileKind, string>> = {
  directory: 'a directory (use glob to list it)',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  'character-device': 'a character device',
  'block-device': 'a block device',
  'symbolic-link': 'a symbolic link',
  other: 'not a regular file',
};

/** The refusal for a path that is not a regular file. */
export function notRegular(shown: string, kind: string): { readonly ok: false; readonly error: string } {
  const text = KIND_TEXTS[kind as FileKind] ?? KIND_TEXTS.other;
  return {
    ok: false,
    error: `refused: ${JSON.stringify(shown)} is ${text}; file tools only read and write regular files`,
  };
}

function fileKind(stats: Stats): FileKind {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character-device';
  if (stats.isBlockDevice()) return 'block-device';
  if (stats.isSymbolicLink()) return 'symbolic-link';
  return 'other';
}
