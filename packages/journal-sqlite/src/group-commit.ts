import type { DatabaseSync } from 'node:sqlite';
import { busyPauseMs, isBusy } from './busy-wait.ts';
import { statement } from './statement-cache.ts';

/**
 * A write to the journal: its statements run inside the transaction of the batch it joins. `batch`
 * is an object of that batch alone, for writes that can tell their batch-mates something (a claim
 * that found nothing due spares the next claims of its batch the search). A write may run more than
 * once (its batch was rolled back because the lock was busy): it must only touch the database and
 * such batch-local notes.
 */
export type JournalWrite<T> = (db: DatabaseSync, batch: object) => T;

/**
 * Group commit: writes queued within one turn of the event loop (the records of a burst of emits,
 * the completions of deliveries answered together, the lease renewals of one tick, the claims of
 * idle loops) commit in one transaction — one WAL append, and with `synchronous = "full"` one
 * fsync, for all of them instead of one each. A write resolves only once its batch has committed,
 * so nothing is reported journaled before it is on disk. A write of several statements runs under its
 * own savepoint, and a write that throws is undone and rejects alone.
 *
 * A batch that finds the lock held by another process is rolled back and tried again, the event loop
 * free in between, together with the writes queued meanwhile; each write waits at most `busyTimeoutMs`
 * from its first try, then rejects with the busy failure. A batch that fails otherwise (a full disk,
 * a corrupted file) rejects all its writes at once.
 */
export interface GroupCommit {
  /**
   * Queues `work` for the batch of this turn of the event loop; resolves to its result once committed.
   * `singleStatement`: the work runs one statement and nothing that can throw after it, so it needs
   * no savepoint (a failing statement undoes itself).
   */
  write<T>(work: JournalWrite<T>, singleStatement?: boolean): Promise<T>;
  /**
   * Commits what is queued now, without waiting for the turn to end; resolves once every queued
   * write committed or failed (before closing the database).
   */
  flush(): Promise<void>;
}

interface Queued {
  readonly work: JournalWrite<unknown>;
  readonly singleStatement: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** When its first batch tried to begin; set at the first try. */
  since?: number;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly failed: unknown };

/** How a {@link GroupCommit} waits for a lock another process holds. */
export interface BusySettings {
  /** The longest a write waits for the lock, from its first try, before it rejects. */
  readonly busyTimeoutMs: number;
}

/**
 * A {@link GroupCommit} over the database `open` returns (opening it when needed); `failure` turns
 * what SQLite threw into the error a write rejects with (`waitedMs` given for a busy lock).
 */
export function groupCommit(
  open: () => DatabaseSync,
  failure: (error: unknown, waitedMs?: number) => unknown,
  busy: BusySettings = { busyTimeoutMs: 0 },
): GroupCommit {
  let queue: Queued[] = [];
  let scheduled: ReturnType<typeof setImmediate> | undefined;
  // Set while a batch waits to try the lock again; writes queued meanwhile join that try.
  let retry: ReturnType<typeof setTimeout> | undefined;
  let drained: Array<() => void> = [];

  const settleWaiters = (): void => {
    if (queue.length > 0 || retry !== undefined) return;
    const waiting = drained;
    drained = [];
    for (const resolve of waiting) resolve();
  };

  const flush = (): void => {
    if (scheduled !== undefined) clearImmediate(scheduled);
    if (retry !== undefined) clearTimeout(retry);
    scheduled = undefined;
    retry = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return settleWaiters();
    const now = Date.now();
    for (const queued of batch) queued.since ??= now;
    let outcomes: Outcome[];
    try {
      outcomes = commit(open(), batch);
    } catch (error) {
      if (isBusy(error)) waitForLock(batch, error);
      else {
        const reason = failure(error);
        for (const queued of batch) queued.reject(reason);
      }
      return settleWaiters();
    }
    batch.forEach((queued, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) queued.resolve(outcome.value);
      else queued.reject(failure(outcome.failed));
    });
    settleWaiters();
  };

  // The batch was rolled back whole: the writes that may still wait go back to the head of the queue.
  const waitForLock = (batch: readonly Queued[], error: unknown): void => {
    const now = Date.now();
    const waiting: Queued[] = [];
    for (const queued of batch) {
      const waited = now - queued.since!;
      if (waited < busy.busyTimeoutMs) waiting.push(queued);
      else queued.reject(failure(error, waited));
    }
    if (waiting.length === 0) return;
    queue = [...waiting, ...queue];
    retry = setTimeout(flush, busyPauseMs());
  };

  return {
    write<T>(work: JournalWrite<T>, singleStatement = false): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, singleStatement, resolve: resolve as (value: unknown) => void, reject });
        if (retry === undefined) scheduled ??= setImmediate(flush);
      });
    },
    flush() {
      flush();
      return new Promise<void>((resolve) => {
        drained.push(resolve);
        settleWaiters();
      });
    },
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
      // A write that met a busy lock (a read of WAL being recovered) retries with its batch.
      if (!outcome.ok && isBusy(outcome.failed)) throw outcome.failed;
      run(outcome.ok ? 'COMMIT' : 'ROLLBACK');
      return [outcome];
    }
    const token = {};
    const outcomes = batch.map(({ work, singleStatement }) => {
      if (singleStatement) {
        const outcome = attempt(work, db, token);
        if (!outcome.ok && isBusy(outcome.failed)) throw outcome.failed;
        return outcome;
      }
      run('SAVEPOINT hookline_write');
      const outcome = attempt(work, db, token);
      if (!outcome.ok && isBusy(outcome.failed)) throw outcome.failed;
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
