import { JournalError } from '@hookline/core/plugin';

/** The schema version this package writes, kept in SQLite's `user_version`. */
export const SCHEMA_VERSION = 5;

/** The one table of a journal. */
export const JOURNAL_TABLE = 'hookline_journal';

/**
 * The live entries (not dead-lettered) in id order, with their retry time. Claims walk it oldest
 * first: without it a claim read every dead letter in front of the first due entry (their rows, with
 * their attempts, in overflow pages) — tens of milliseconds per claim once a few thousand dead letters
 * piled up in a webhook soak, against a fraction of a millisecond through the index.
 */
const CREATE_LIVE_INDEX = `CREATE INDEX IF NOT EXISTS hookline_journal_live ON ${JOURNAL_TABLE} (id, available_at) WHERE dead_at IS NULL;`;

/** Hook targets (HTTP endpoints) that get no delivery until re-enabled: one answered 410 Gone. */
export const DISABLED_TARGETS_TABLE = 'hookline_disabled_targets';

const CREATE_DISABLED_TARGETS = `
CREATE TABLE IF NOT EXISTS ${DISABLED_TARGETS_TABLE} (
  target      TEXT    PRIMARY KEY,
  disabled_at INTEGER NOT NULL,
  reason      TEXT    NOT NULL
);`;

/**
 * One row per entry not cleared yet; a completed entry is deleted. Times are milliseconds since the epoch.
 * The holder columns (`owner`, `owner_host`, `owner_pid`, `lease_expires_at`) are all set while an
 * engine holds the entry and all null otherwise; `available_at` delays a released entry.
 */
export const CREATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS ${JOURNAL_TABLE} (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  preset           TEXT    NOT NULL,
  event            TEXT    NOT NULL,
  context          TEXT    NOT NULL,
  hooks            TEXT    NOT NULL,
  created_at       INTEGER NOT NULL,
  attempts         INTEGER NOT NULL,
  last_error       TEXT,
  available_at     INTEGER NOT NULL DEFAULT 0,
  owner            TEXT,
  owner_host       TEXT,
  owner_pid        INTEGER,
  lease_expires_at INTEGER,
  owner_start      TEXT,
  process_groups   TEXT,
  dead_at          INTEGER,
  seal             TEXT,
  deliveries       TEXT
);
${CREATE_DISABLED_TARGETS}
${CREATE_LIVE_INDEX}
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/**
 * From each older schema version to the next, run in one transaction at open. Version 2 adds the
 * holder's start time (a pid reused by another process is not the holder), the process groups its
 * hooks started (ended before the entry runs again) and the dead-letter time. Version 3 adds the
 * engine's seal over the entry: rows from before it have none, and are refused when claimed until
 * someone vouches for them (`hookline journal retry ID --trust`). Version 4 adds the attempts of
 * hooks with a retry policy (JSON) and the table of disabled targets. Version 5 adds the index of live
 * entries that claims walk.
 */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  1: `
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN owner_start TEXT;
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN process_groups TEXT;
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN dead_at INTEGER;
PRAGMA user_version = 2;
`,
  2: `
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN seal TEXT;
PRAGMA user_version = 3;
`,
  3: `
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN deliveries TEXT;
${CREATE_DISABLED_TARGETS}
PRAGMA user_version = 4;
`,
  4: `
${CREATE_LIVE_INDEX}
PRAGMA user_version = 5;
`,
};

/** A row as SQLite returns it. */
export interface JournalRow {
  readonly id: number;
  readonly preset: string;
  readonly event: string;
  readonly context: string;
  readonly hooks: string;
  readonly created_at: number;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly available_at: number;
  readonly owner: string | null;
  readonly owner_host: string | null;
  readonly owner_pid: number | null;
  readonly lease_expires_at: number | null;
  readonly owner_start: string | null;
  /** JSON: the {@link JournalProcessGroup}s its hooks started. */
  readonly process_groups: string | null;
  readonly dead_at: number | null;
  /** The engine's seal over the entry (see `Journal`); null in rows written before schema 3. */
  readonly seal: string | null;
  /** JSON: the {@link JournalAttempt}s of hooks with a retry policy; null when there were none. */
  readonly deliveries: string | null;
}

/**
 * Reads one row as `node:sqlite` returns it (a record of column values), checking each column's
 * type, so a table that another program changed fails with the column it got wrong.
 */
export function readJournalRow(row: Readonly<Record<string, unknown>>): JournalRow {
  return {
    id: integer(row, 'id'),
    preset: text(row, 'preset'),
    event: text(row, 'event'),
    context: text(row, 'context'),
    hooks: text(row, 'hooks'),
    created_at: integer(row, 'created_at'),
    attempts: integer(row, 'attempts'),
    last_error: nullable(row, 'last_error', text),
    available_at: integer(row, 'available_at'),
    owner: nullable(row, 'owner', text),
    owner_host: nullable(row, 'owner_host', text),
    owner_pid: nullable(row, 'owner_pid', integer),
    lease_expires_at: nullable(row, 'lease_expires_at', integer),
    owner_start: nullable(row, 'owner_start', text),
    process_groups: nullable(row, 'process_groups', text),
    dead_at: nullable(row, 'dead_at', integer),
    seal: nullable(row, 'seal', text),
    deliveries: nullable(row, 'deliveries', text),
  };
}

function text(row: Readonly<Record<string, unknown>>, column: string): string {
  const value = row[column];
  if (typeof value === 'string') return value;
  throw unexpected(column, value, 'text');
}

function integer(row: Readonly<Record<string, unknown>>, column: string): number {
  const value = row[column];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw unexpected(column, value, 'an integer');
}

function nullable<T>(
  row: Readonly<Record<string, unknown>>,
  column: string,
  read: (row: Readonly<Record<string, unknown>>, column: string) => T,
): T | null {
  return row[column] === null ? null : read(row, column);
}

function unexpected(column: string, value: unknown, expected: string): JournalError {
  return new JournalError(
    `column ${column} of ${JOURNAL_TABLE} holds ${value === undefined ? 'nothing' : typeof value}, not ${expected}; the table was changed by something other than @hookline/journal-sqlite: restore the file from a backup, or move it aside to start an empty journal`,
  );
}
