/** The schema version this package writes, kept in SQLite's `user_version`. */
export const SCHEMA_VERSION = 2;

/** The one table of a journal. */
export const JOURNAL_TABLE = 'hookline_journal';

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
  dead_at          INTEGER
);
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/**
 * From each older schema version to the next, run in one transaction at open. Version 2 adds the
 * holder's start time (a pid reused by another process is not the holder), the process groups its
 * hooks started (ended before the entry runs again) and the dead-letter time.
 */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  1: `
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN owner_start TEXT;
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN process_groups TEXT;
ALTER TABLE ${JOURNAL_TABLE} ADD COLUMN dead_at INTEGER;
PRAGMA user_version = 2;
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
}
