import type { DatabaseSync, StatementSync } from 'node:sqlite';

// Prepared once per database handle: preparing costs about as much as running one of these small statements.
const cache = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** The prepared statement for `sql` on `db`, prepared on first use and reused afterwards. */
export function statement(db: DatabaseSync, sql: string): StatementSync {
  let statements = cache.get(db);
  if (statements === undefined) cache.set(db, (statements = new Map<string, StatementSync>()));
  let prepared = statements.get(sql);
  if (prepared === undefined) statements.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}
