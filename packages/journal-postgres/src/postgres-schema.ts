import type { TableNames } from './table-names.ts';

/** The schema version this package writes, kept in the meta table's `schema_version` row. */
export const SCHEMA_VERSION = 1;

/**
 * The statements that bring the tables from version `from` (0: nothing there) to {@link SCHEMA_VERSION},
 * each step one list; they run in one transaction under the schema's advisory lock.
 *
 * Times are `timestamptz` set from the server's clock (`now()`), never a client's: leases taken and
 * checked by different machines compare one clock. The holder columns (`owner`, `owner_host`,
 * `owner_pid`, `owner_start`, `lease_until`) are all set while an engine holds the entry and all null
 * otherwise. `context` and `hooks` are `json` (kept as written, key order included).
 */
export function migrations(names: TableNames, from: number): string[] {
  const steps: string[][] = [
    [
      `CREATE SCHEMA IF NOT EXISTS ${names.schema}`,
      `CREATE TABLE IF NOT EXISTS ${names.meta} (key text PRIMARY KEY, value text NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${names.journal} (
        id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        preset         text        NOT NULL,
        event          text        NOT NULL,
        context        json        NOT NULL,
        hooks          json        NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now(),
        attempts       integer     NOT NULL,
        last_error     text,
        available_at   timestamptz NOT NULL DEFAULT now(),
        owner          text,
        owner_host     text,
        owner_pid      integer,
        owner_start    text,
        lease_until    timestamptz,
        process_groups jsonb,
        dead_at        timestamptz
      )`,
      // Claims walk the live entries oldest first; dead letters stay out of their way.
      `CREATE INDEX IF NOT EXISTS "${names.claimIndex}" ON ${names.journal} (id) WHERE dead_at IS NULL`,
    ],
  ];
  return steps.slice(from).flat();
}
