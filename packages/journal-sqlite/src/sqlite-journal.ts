import { resolve } from 'node:path';
import process from 'node:process';
import type { DatabaseSync } from 'node:sqlite';
import { defineJournal, type Journal, type JournalEntry, type JournalRecord } from '@hookline/core';
import { isProcessAlive, localHostIdentity } from './host-identity.ts';
import { JOURNAL_TABLE, type JournalRow } from './journal-schema.ts';
import { isCorruption, journalFailure, openJournalDatabase } from './open-journal-database.ts';

/** Settings of {@link sqliteJournal}. */
export interface SqliteJournalSettings {
  /** The journal file, resolved against the working directory; it and its folder are made on first use. */
  readonly path: string;
  /** How long a write waits for another process's lock before failing; default 5 000 ms. */
  readonly busyTimeoutMs?: number;
  /**
   * `full` (default): a recorded entry survives a power cut, at the cost of an fsync per write.
   * `normal`: it survives a crashed or killed process (SQLite's WAL), not a power cut; faster.
   */
  readonly synchronous?: 'full' | 'normal';
  /**
   * Names this machine, so that entries held by a process of it that is gone are reclaimed at once
   * instead of when their lease ends. Default: host name, boot id and pid namespace. Processes that
   * share an identity must see each other's pids.
   */
  readonly hostIdentity?: string;
}

/**
 * A {@link Journal} in an embedded SQLite database (`node:sqlite`: no native addon): WAL mode, a busy
 * timeout for writers of other processes, every claim in an `IMMEDIATE` transaction so one entry
 * goes to one engine. An entry held by a process of this host that is no longer running is
 * reclaimed at once; otherwise when its lease expires. Opening happens on first use; a file that
 * cannot be opened or is corrupted gives a `JournalError` naming it, and is never changed.
 *
 * ```ts
 * const engine = createHookEngine({ config, runners, journal: sqliteJournal({ path: '.hookline/journal.db' }) });
 * await engine.resume(); // at start: runs what a killed process left
 * ```
 */
export function sqliteJournal(settings: SqliteJournalSettings): Journal {
  const path = resolve(settings.path);
  const openSettings = { busyTimeoutMs: settings.busyTimeoutMs ?? 5_000, synchronous: settings.synchronous ?? 'full' } as const;
  let database: DatabaseSync | undefined;
  let host: string | undefined;

  // Every operation opens the database if needed and turns SQLite errors into JournalErrors. A
  // corrupted file is closed, so the next operation checks it again instead of using it.
  const use = <T>(work: (db: DatabaseSync) => T): Promise<T> => {
    try {
      database ??= openJournalDatabase(path, openSettings);
      return Promise.resolve(work(database));
    } catch (error) {
      if (database !== undefined && isCorruption(error)) {
        try {
          database.close();
        } catch {
          // Closing a broken handle may fail too; it is dropped either way.
        }
        database = undefined;
      }
      return Promise.reject(journalFailure(error, path));
    }
  };
  const hostIdentity = (): string => (host ??= settings.hostIdentity ?? localHostIdentity());

  return defineJournal({
    name: `@hookline/journal-sqlite (${path})`,
    doRecord(record: JournalRecord, owner: string, leaseMs: number) {
      return use((db) => {
        const now = Date.now();
        const result = db
          .prepare(
            `INSERT INTO ${JOURNAL_TABLE} (preset, event, context, hooks, created_at, attempts, owner, owner_host, owner_pid, lease_expires_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
          )
          .run(record.preset, record.event, JSON.stringify(record.context), JSON.stringify(record.hooks), now, owner, hostIdentity(), process.pid, now + leaseMs);
        return String(result.lastInsertRowid);
      });
    },
    doClaim(owner: string, leaseMs: number) {
      return use((db) => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const claimed = claimNext(db, owner, leaseMs, hostIdentity());
          db.exec('COMMIT');
          return claimed;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      });
    },
    doRenew(id: string, owner: string, leaseMs: number) {
      return use((db) => db.prepare(`UPDATE ${JOURNAL_TABLE} SET lease_expires_at = ? WHERE id = ? AND owner = ?`).run(Date.now() + leaseMs, Number(id), owner).changes === 1);
    },
    doComplete(id: string, owner: string) {
      return use((db) => db.prepare(`DELETE FROM ${JOURNAL_TABLE} WHERE id = ? AND owner = ?`).run(Number(id), owner).changes === 1);
    },
    doRelease(id: string, owner: string, error: string, retryAfterMs = 0) {
      return use(
        (db) =>
          db
            .prepare(
              `UPDATE ${JOURNAL_TABLE} SET owner = NULL, owner_host = NULL, owner_pid = NULL, lease_expires_at = NULL, last_error = ?, available_at = ? WHERE id = ? AND owner = ?`,
            )
            .run(error, Date.now() + retryAfterMs, Number(id), owner).changes === 1,
      );
    },
    list() {
      return use((db) => (db.prepare(`SELECT * FROM ${JOURNAL_TABLE} ORDER BY id`).all() as unknown as JournalRow[]).map(toEntry));
    },
    async doClose() {
      const open = database;
      database = undefined;
      open?.close();
    },
  });
}

// Candidates are read a page at a time: entries held by live engines of this host are skipped
// without loading the whole journal for every claim.
const CLAIM_PAGE = 64;

// Inside the claim's transaction: the oldest entry that is due and held by nobody — never leased,
// released, lease expired, or held by a process of this host that is gone.
function claimNext(db: DatabaseSync, owner: string, leaseMs: number, host: string): JournalEntry | undefined {
  const now = Date.now();
  const page = db.prepare(
    `SELECT * FROM ${JOURNAL_TABLE} WHERE id > ? AND available_at <= ? AND (owner IS NULL OR lease_expires_at <= ? OR owner_host = ?) ORDER BY id LIMIT ${CLAIM_PAGE}`,
  );
  const alive = new Map<number, boolean>();
  let after = 0;
  for (;;) {
    const rows = page.all(after, now, now, host) as unknown as JournalRow[];
    for (const row of rows) {
      const free = row.owner === null || (row.lease_expires_at ?? 0) <= now;
      if (!free) {
        const pid = row.owner_pid;
        // Our own process is alive by definition; an entry it holds belongs to a running engine.
        if (pid === null || pid === process.pid) continue;
        let running = alive.get(pid);
        if (running === undefined) alive.set(pid, (running = isProcessAlive(pid)));
        if (running) continue;
      }
      db.prepare(`UPDATE ${JOURNAL_TABLE} SET owner = ?, owner_host = ?, owner_pid = ?, lease_expires_at = ?, attempts = attempts + 1 WHERE id = ?`).run(
        owner,
        host,
        process.pid,
        now + leaseMs,
        row.id,
      );
      return toEntry({ ...row, owner, owner_host: host, owner_pid: process.pid, lease_expires_at: now + leaseMs, attempts: row.attempts + 1 });
    }
    if (rows.length < CLAIM_PAGE) return undefined;
    after = rows[rows.length - 1]!.id;
  }
}

function toEntry(row: JournalRow): JournalEntry {
  return {
    id: String(row.id),
    preset: row.preset,
    event: row.event,
    context: JSON.parse(row.context) as Record<string, unknown>,
    hooks: JSON.parse(row.hooks) as string[],
    createdAt: row.created_at,
    attempts: row.attempts,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.owner === null ? {} : { owner: row.owner }),
    ...(row.lease_expires_at === null ? {} : { leaseExpiresAt: row.lease_expires_at }),
  };
}
