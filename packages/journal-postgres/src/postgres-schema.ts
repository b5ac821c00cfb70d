import type { TableNames } from './table-names.ts';

/** The schema version this package writes, kept in the meta table's `schema_version` row. */
export const SCHEMA_VERSION = 5;

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
    [claimFunction(names)],
    [claimNextFunction(names)],
    // The engine's seal over each entry; rows from before it have none and are refused when claimed
    // until someone vouches for them (hookline journal retry ID --trust). The functions return the
    // row type, so they are made again with the new column.
    [`ALTER TABLE ${names.journal} ADD COLUMN IF NOT EXISTS seal text`, claimFunction(names), claimNextFunction(names)],
    // The attempts of hooks with a retry policy, and the targets (endpoints) that answered 410 Gone.
    [
      `ALTER TABLE ${names.journal} ADD COLUMN IF NOT EXISTS deliveries jsonb`,
      `CREATE TABLE IF NOT EXISTS ${names.disabledTargets} (target text PRIMARY KEY, disabled_at timestamptz NOT NULL DEFAULT now(), reason text NOT NULL)`,
      claimFunction(names),
      claimNextFunction(names),
    ],
  ];
  return steps.slice(from).flat();
}

/**
 * The claim as a function, for the planner settings it carries. A work queue's statistics are
 * nearly always stale — the table fills and drains between autovacuum's analyses — and on stale
 * statistics the planner may read the whole backlog by bitmap and sort it, for every claim: a
 * claim's cost then grows with the backlog (0.3× the bare statement's throughput at 2,000 entries in the bench).
 * With bitmap scans and sorts off for this one statement, a claim walks the claim index in id order
 * and stops at the first entry it can lock. The settings ride with the function, so they hold
 * behind a connection pooler that refuses planner settings at connect. PL/pgSQL rather than SQL:
 * it keeps the statement's plan for the session, where a SQL function plans it at every call.
 *
 * Arguments: owner, its pid, its process start, the lease in ms, its host, the gone holders of that
 * host (`pid/start,…`), the attempts after which an entry is dead-lettered. The oldest due entry that
 * nobody holds (or a gone holder does) is leased to the owner with an attempt counted — or, when it
 * used its attempts, dead-lettered and returned as such. Positional arguments: named ones would
 * shadow the columns of the same names.
 */
function claimFunction(names: TableNames): string {
  return `CREATE OR REPLACE FUNCTION ${names.claimFunction}(text, integer, text, float8, text, text, integer)
    RETURNS SETOF ${names.journal}
    LANGUAGE plpgsql VOLATILE
    SET enable_bitmapscan = off
    SET enable_sort = off
    AS $claim$
    DECLARE
      claimed ${names.journal}%ROWTYPE;
    BEGIN
      WITH candidate AS (
        SELECT id FROM ${names.journal}
        WHERE dead_at IS NULL AND available_at <= now()
          AND (owner IS NULL OR lease_until <= now() OR (owner_host = $5 AND owner_pid || '/' || owner_start = ANY (string_to_array($6, ','))))
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
      )
      UPDATE ${names.journal} AS j SET
        dead_at = CASE WHEN j.attempts >= $7 THEN now() END,
        last_error = CASE WHEN j.attempts >= $7 THEN 'dead-lettered after ' || j.attempts || ' attempts' || coalesce('; the last: ' || j.last_error, '') ELSE j.last_error END,
        attempts = CASE WHEN j.attempts >= $7 THEN j.attempts ELSE j.attempts + 1 END,
        owner = CASE WHEN j.attempts >= $7 THEN NULL ELSE $1 END,
        owner_host = CASE WHEN j.attempts >= $7 THEN NULL ELSE $5 END,
        owner_pid = CASE WHEN j.attempts >= $7 THEN NULL ELSE $2 END,
        owner_start = CASE WHEN j.attempts >= $7 THEN NULL ELSE $3 END,
        lease_until = CASE WHEN j.attempts >= $7 THEN NULL ELSE now() + $4 * interval '1 millisecond' END
      FROM candidate WHERE j.id = candidate.id
      RETURNING j.* INTO claimed;
      IF FOUND THEN
        RETURN NEXT claimed;
      END IF;
    END
    $claim$`;
}

/**
 * A holder's clear of the entry it finished and its next claim, as one call: a claimer that goes
 * straight on to the next entry (`engine.resume`, `hookline worker`) then waits for one round trip
 * per entry instead of two. It deletes entry `$1` if `$2` still holds it, then claims as the claim
 * function does (arguments `$2`… are the claim's), and returns one row: whether the entry was
 * cleared, and the entry claimed (null when none was due).
 */
function claimNextFunction(names: TableNames): string {
  return `CREATE OR REPLACE FUNCTION ${names.claimNextFunction}(bigint, text, integer, text, float8, text, text, integer)
    RETURNS TABLE (cleared boolean, entry ${names.journal})
    LANGUAGE plpgsql VOLATILE
    AS $claim_next$
    BEGIN
      DELETE FROM ${names.journal} WHERE id = $1 AND owner = $2;
      cleared := FOUND;
      SELECT * INTO entry FROM ${names.claimFunction}($2, $3, $4, $5, $6, $7, $8);
      RETURN NEXT;
    END
    $claim_next$`;
}
