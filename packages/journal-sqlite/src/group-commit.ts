import type { DatabaseSync } from 'node:sqlite';
import { statement } from './statement-cache.ts';

/**
 * A write to the journal: its statements run inside the transaction of the batch it joins. `batch`
 * is an object of that batch alone, for writes that can tell their batch-mates something (a claim
 * that found nothing due spares the next claims of its batch the search).
 */
export type JournalWrite<T> = (db: DatabaseSync, batch: object) => T;

/**
 * Group commit: writes queued within one turn of the event loop (the records of a burst of emits,
 * the completions of deliveries answered together, the lease renewals of one tick, the claims of
 * idle loops) commit in one transaction — one WAL append, and with `synchronous = "full"` one
 * fsync, for all of them instead of one each. A write resolves only once its batch has committed,
 * so nothing is reported journaled before it is on disk. A write of several statements runs under its
 * own savepoint, and a write that throws is undone and rejects alone; a batch that cannot begin or
 * commit (another process holding the lock past the busy timeout, a full disk) rejects all its writes.
 */
export interface GroupCommit {
  /**
   * Queues `work` for the batch of this turn of the event loop; resolves to its result once committed.
   * `singleStatement`: the work runs one statement and nothing that can throw after it, so it needs
   * no savepoint (a failing statement undoes itself).
   */
  write<T>(work: JournalWrite<T>, singleStatement?: boolean): Promise<T>;
  /** Commits what is queued now, without waiting for the turn to end (before closing the database). */
  flush(): void;
}

interface Queued {
  readonly work: JournalWrite<unknown>;
  readonly singleStatement: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly failed: unknown };

/**
 * A {@link GroupCommit} over the database `open` returns (opening it when needed); `failure` turns
 * what SQLite threw into the error a write rejects with.
 */
export function groupCommit(open: () => DatabaseSync, failure: (error: unknown) => unknown): GroupCommit {
  let queue: Queued[] = [];
  let scheduled: ReturnType<typeof setImmediate> | undefined;

  const flush = (): void => {
    if (scheduled !== undefined) clearImmediate(scheduled);
    scheduled = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = commit(open(), batch);
    } catch (error) {
      const reason = failure(error);
      for (const queued of batch) queued.reject(reason);
      return;
    }
    batch.forEach((queued, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) queued.resolve(outcome.value);
      else queued.reject(failure(outcome.failed));
    });
  };

  return {
    write<T>(work: JournalWrite<T>, singleStatement = false): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, singleStatement, resolve: resolve as (value: unknown) => void, reject });
        scheduled ??= setImmediate(flush);
      });
    },
    flush,
  };
}

// One transaction for the batch, a savepoint per write of several statements (none for a write
// alone: its failure rolls the whole transaction back). Throws when the transaction itself fails.
// The transaction's own statements are prepared once, like the writes': parsing them for every batch
// showed in profiles.
function commit(db: DatabaseSync, batch: readonly Queued[]): Outcome[] {
  const run = (sql: string): unknown => statement(db, sql).run();
  run('BEGIN IMMEDIATE');
  try {
    if (batch.length === 1) {
      const outcome = attempt(batch[0]!.work, db, {});
      run(outcome.ok ? 'COMMIT' : 'ROLLBACK');
      return [outcome];
    }
    const token = {};
    const outcomes = batch.map(({ work, singleStatement }) => {
      if (singleStatement) return attempt(work, db, token);
      run('SAVEPOINT hookline_write');
      const outcome = attempt(work, db, token);
      if (!outcome.ok) run('ROLLBACK TO hookline_write');
      run('RELEASE hookline_write');
      return outcome;
    });
    run('COMMIT');
    return outcomes;
  } catch (error) {
    rollback(db);
    throw error;
  }
}

function attempt(work: JournalWrite<unknown>, db: DatabaseSync, batch: object): Outcome {
  try {
    return { ok: true, value: work(db, batch) };
  } catch (error) {
    return { ok: false, failed: error };
  }
}

function rollback(db: DatabaseSync): void {
  try {
    if (db.isTransaction) db.exec('ROLLBACK');
  } catch {
    // SQLite may have rolled the transaction back itself already (a full disk, an I/O error).
  }
}
