import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { JournalError, messageOf } from '@hookline/core/plugin';
import { isBusy } from './busy-wait.ts';
import { CREATE_SCHEMA, JOURNAL_TABLE, MIGRATIONS, SCHEMA_VERSION } from './journal-schema.ts';

/** How the database is opened. */
export interface OpenSettings {
  /** How long SQLite's own busy handler waits for a lock, per attempt (see BUSY_SLICE_MS). */
  readonly lockWaitMs: number;
  readonly synchronous: 'full' | 'normal';
}

// Every SQLite database file starts with these 16 bytes (https://www.sqlite.org/fileformat.html).
const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Opens (making it and its folder when missing) the journal database at `path`: WAL mode, the busy
 * timeout, the schema. A file that is not an SQLite database is refused before SQLite touches it,
 * and a database that fails `PRAGMA quick_check` or holds other tables is refused too — the file
 * is never changed, overwritten or removed; the error says to move it aside.
 */
export function openJournalDatabase(path: string, settings: OpenSettings): DatabaseSync {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new JournalError(
      `The hook journal ${path} cannot be opened: its folder cannot be made (${messageOf(error)}). Choose a path in a writable folder.`,
      { location: path, cause: error },
    );
  }
  const header = readHeader(path);
  if (header !== undefined && header !== SQLITE_HEADER) throw corrupted(path, 'it is not an SQLite database');

  let database: DatabaseSync;
  try {
    database = new DatabaseSync(path, { timeout: settings.lockWaitMs });
  } catch (error) {
    throw journalFailure(error, path);
  }
  try {
    const check = database.prepare('PRAGMA quick_check').all() as Array<Record<string, unknown>>;
    const problems = check.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
    if (problems.length > 0)
      throw corrupted(path, `SQLite's integrity check found: ${problems.slice(0, 3).join('; ')}`);
    const tables = (
      database
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all() as Array<{ name: string }>
    ).map((row) => row.name);
    if (tables.length > 0 && !tables.includes(JOURNAL_TABLE)) {
      throw new JournalError(
        `The hook journal ${path} is an SQLite database with other tables (${tables.slice(0, 5).join(', ')}), not a Hookline journal. Give sqliteJournal a path of its own; the file was left as it is.`,
        { location: path },
      );
    }
    const version = Number((database.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (version > SCHEMA_VERSION) {
      throw new JournalError(
        `The hook journal ${path} was written by a newer @hookline/journal-sqlite (schema ${version}; this one knows ${SCHEMA_VERSION}). Upgrade @hookline/journal-sqlite; the file was left as it is.`,
        { location: path },
      );
    }
    // WAL lets readers and one writer work at once across processes; the mode is kept in the file.
    database.exec('PRAGMA journal_mode = WAL');
    database.exec(`PRAGMA synchronous = ${settings.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    if (!tables.includes(JOURNAL_TABLE) || version < SCHEMA_VERSION) {
      database.exec('BEGIN IMMEDIATE');
      try {
        // Read again under the write lock: another process may have made or migrated it meanwhile.
        const exists =
          database.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${JOURNAL_TABLE}'`).get() !==
          undefined;
        if (!exists) database.exec(CREATE_SCHEMA);
        else {
          for (
            let at = Math.max(
              1,
              Number((database.prepare('PRAGMA user_version').get() as { user_version: number }).user_version),
            );
            at < SCHEMA_VERSION;
            at++
          ) {
            database.exec(MIGRATIONS[at]!);
          }
        }
        database.exec('COMMIT');
      } catch (error) {
        database.exec('ROLLBACK');
        throw error;
      }
    }
    return database;
  } catch (error) {
    database.close();
    throw journalFailure(error, path);
  }
}

/**
 * A {@link JournalError} for anything SQLite threw while using the journal at `path`, worded by its
 * cause: a corrupted file (move it aside), a lock held too long (`busy`: how long the journal waited
 * for it, and its busy timeout), a file that cannot be opened.
 */
export function journalFailure(
  error: unknown,
  path: string,
  busy?: { readonly waitedMs: number; readonly busyTimeoutMs: number },
): JournalError {
  if (isBusy(error)) {
    const cause = JournalError.isInstance(error) ? (error.cause ?? error) : error;
    const waited =
      busy === undefined
        ? 'beyond its busy timeout'
        : `for ${busy.waitedMs} ms, past its busy timeout of ${busy.busyTimeoutMs} ms`;
    return new JournalError(
      `The hook journal ${path} stayed locked by another process ${waited} (${messageOf(cause)}). The journal is fine: retry once that process lets go, or raise busyTimeoutMs ([journal] busy_timeout_ms in the CLI).`,
      { location: path, cause, busy: true },
    );
  }
  if (error instanceof JournalError) return error;
  const code = (error as { errcode?: unknown } | null)?.errcode;
  // SQLite's primary result codes: the low byte of an extended one.
  const primary = typeof code === 'number' ? code & 0xff : undefined;
  if (isCorruption(error)) return corrupted(path, messageOf(error), error);
  if (primary === 14) {
    return new JournalError(
      `The hook journal ${path} cannot be opened (${messageOf(error)}); check that its folder exists and is writable.`,
      { location: path, cause: error },
    );
  }
  return new JournalError(`The hook journal ${path} failed: ${messageOf(error)}.`, { location: path, cause: error });
}

/** Whether SQLite said the file is damaged or not a database (SQLITE_CORRUPT, SQLITE_NOTADB). */
export function isCorruption(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && ((code & 0xff) === 11 || (code & 0xff) === 26);
}

function corrupted(path: string, detail: string, cause?: unknown): JournalError {
  return new JournalError(
    `The hook journal ${path} is corrupted or not a journal (${detail}). Hookline left it untouched: move it aside (e.g. mv "${path}" "${path}.corrupt") to start a new journal — entries in it will not run unless you recover them.`,
    { location: path, ...(cause === undefined ? {} : { cause }) },
  );
}

// The file's first 16 bytes as text; undefined when the file is missing or empty (SQLite makes it).
function readHeader(path: string): string | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JournalError(`The hook journal ${path} cannot be read (${messageOf(error)}); check its permissions.`, {
      location: path,
      cause: error,
    });
  }
  try {
    const bytes = new Uint8Array(16);
    const read = readSync(descriptor, bytes, 0, 16, 0);
    return read === 0 ? undefined : String.fromCharCode(...bytes.subarray(0, read));
  } finally {
    closeSync(descriptor);
  }
}
