/** The schema version this package writes, kept in SQLite's `user_version`. */
export const SCHEMA_VERSION = 1;

/** The one table of a journal. */
export const JOURNAL_TABLE = 'hookline_journal';

/**
 * One row per pending entry; a completed entry is deleted. Times are milliseconds since the epoch.
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
  lease_expires_at INTEGER
);
PRAGMA user_version = ${SCHEMA_VERSION};
`;

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
}
