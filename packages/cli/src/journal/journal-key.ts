import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { JournalError, messageOf } from '@hookline/core';

/** Where the key came from, and its bytes. */
export interface JournalKeySource {
  readonly bytes: Uint8Array;
  /** `HOOKLINE_JOURNAL_KEY`, or the key file's path. */
  readonly from: string;
}

/**
 * The key file of this user: `$XDG_STATE_HOME/hookline/journal.key`, by default
 * `~/.local/state/hookline/journal.key` — outside every project, so a hook that can write a
 * project's journal (it lives in `.hookline/`) cannot read the key to seal what it writes.
 */
export function journalKeyPath(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const state = env['XDG_STATE_HOME'] || (env['HOME'] ? join(env['HOME'], '.local', 'state') : undefined);
  return state === undefined ? undefined : join(state, 'hookline', 'journal.key');
}

/**
 * Reads the journal key: `HOOKLINE_JOURNAL_KEY` (64 or more hex digits — the same value on every
 * worker sharing a PostgreSQL journal), else the key file, made on first use (32 random bytes as hex,
 * mode 0600, in a folder of mode 0700). A file or folder that another user owns, or that others can
 * read or write, is refused: whoever can read it can forge entries, whoever can write it can swap it.
 * Throws a `JournalError` saying what to do; the engine then runs durable hooks unjournaled, with a
 * warning, as for any journal it cannot use.
 */
export function loadJournalKey(env: Readonly<Record<string, string | undefined>>): JournalKeySource {
  const given = env['HOOKLINE_JOURNAL_KEY'];
  if (given !== undefined && given !== '') {
    const bytes = decodeKey(given);
    if (bytes === undefined)
      throw new JournalError(
        'HOOKLINE_JOURNAL_KEY must be at least 64 hex digits (32 bytes), e.g. the output of: openssl rand -hex 32.',
      );
    return { bytes, from: 'HOOKLINE_JOURNAL_KEY' };
  }
  const path = journalKeyPath(env);
  if (path === undefined)
    throw new JournalError(
      'The journal key has no home: set HOME or XDG_STATE_HOME, or give the key in HOOKLINE_JOURNAL_KEY (openssl rand -hex 32).',
    );
  const folder = join(path, '..');
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new JournalError(
      `The journal key's folder ${folder} cannot be made (${messageOf(error)}); make it (mode 700), or give the key in HOOKLINE_JOURNAL_KEY.`,
      { location: folder, cause: error },
    );
  }
  checkPrivate(folder, statSync(folder), 'folder', '700');
  makeKeyFile(path);
  let descriptor: number;
  try {
    // O_NOFOLLOW: a symbolic link planted in place of the key is refused, not followed.
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    throw new JournalError(
      `The journal key ${path} cannot be read (${messageOf(error)}); it must be a regular file of yours (mode 600).`,
      { location: path, cause: error },
    );
  }
  try {
    checkPrivate(path, fstatSync(descriptor), 'file', '600');
    const bytes = decodeKey(readFileSync(descriptor, 'utf8').trim());
    if (bytes === undefined)
      throw new JournalError(
        `The journal key ${path} is not 64 or more hex digits. Move it aside to have a new one made (entries sealed with the old one will be refused).`,
        { location: path },
      );
    return { bytes, from: path };
  } finally {
    closeSync(descriptor);
  }
}

// Made whole, then put in place: the key is written to a private file of its own and hard-linked to
// `path`, which fails with EEXIST when another process was first. A process starting at the same
// moment therefore finds either no key (and makes one) or a complete one — never the empty file an
// O_EXCL create shows between its open and its write, which would read as a broken key and make that
// process run its durable hooks unjournaled.
function makeKeyFile(path: string): void {
  if (existsSync(path)) return;
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  let descriptor: number;
  try {
    descriptor = openSync(
      draft,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
  } catch (error) {
    throw new JournalError(
      `The journal key ${path} cannot be made (${messageOf(error)}); check its folder, or give the key in HOOKLINE_JOURNAL_KEY.`,
      { location: path, cause: error },
    );
  }
  try {
    try {
      writeSync(descriptor, `${randomBytes(32).toString('hex')}\n`);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new JournalError(
        `The journal key ${path} cannot be made (${messageOf(error)}); check its folder, or give the key in HOOKLINE_JOURNAL_KEY.`,
        { location: path, cause: error },
      );
  } finally {
    rmSync(draft, { force: true });
  }
}

function checkPrivate(
  path: string,
  stat: { uid: number; mode: number; isFile(): boolean; isDirectory(): boolean },
  kind: 'file' | 'folder',
  mode: string,
): void {
  const uid = process.getuid?.();
  if (kind === 'file' ? !stat.isFile() : !stat.isDirectory())
    throw new JournalError(`The journal key ${kind} ${path} is not a ${kind}. Move it aside.`, { location: path });
  if (uid !== undefined && stat.uid !== uid) {
    throw new JournalError(
      `The journal key ${kind} ${path} belongs to another user (uid ${stat.uid}); Hookline uses only a key of yours. Move it aside to have your own made.`,
      { location: path },
    );
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new JournalError(
      `The journal key ${kind} ${path} can be reached by other users (mode ${(stat.mode & 0o777).toString(8)}); run chmod ${mode} "${path}" — and if others may have read the key, move the file aside to have a new one made.`,
      { location: path },
    );
  }
}

function decodeKey(text: string): Uint8Array | undefined {
  return /^(?:[0-9a-fA-F]{2}){32,}$/.test(text) ? new Uint8Array(Buffer.from(text, 'hex')) : undefined;
}
