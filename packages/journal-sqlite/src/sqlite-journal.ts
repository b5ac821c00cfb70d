import { resolve } from 'node:path';
import process from 'node:process';
import type { DatabaseSync } from 'node:sqlite';
import {
  defineJournal,
  InvalidOptionError,
  type JournalError,
  type Journal,
  type DisabledTarget,
  type JournalAttempt,
  type JournalEntry,
  type JournalListQuery,
  type JournalNext,
  type JournalProcessGroup,
  type JournalRecord,
  type JournalRetryOptions,
  type JournalStats,
  type ProcessGroupSealer,
} from '@hookline/core/plugin';
import {
  endProcessGroups,
  isSameProcess,
  localHostIdentity,
  processIdentity,
} from '@hookline/runner-command/process-identity';
import { DISABLED_TARGETS_TABLE, JOURNAL_TABLE, readJournalRow, type JournalRow } from './journal-schema.ts';
import { BUSY_SLICE_MS, busyPauseMs, DEFAULT_BUSY_TIMEOUT_MS, isBusy } from './busy-wait.ts';
import { groupCommit } from './group-commit.ts';
import { isCorruption, journalFailure, openJournalDatabase } from './open-journal-database.ts';
import { statement } from './statement-cache.ts';

/** Settings of {@link sqliteJournal}. */
export interface SqliteJournalSettings {
  /** The journal file, resolved against the working directory; it and its folder are made on first use. */
  readonly path: string;
  /**
   * How long an operation waits, in all, for a lock another process holds before it fails with a
   * busy `JournalError` (`busy: true`, code `HOOKLINE_JOURNAL_BUSY`); default 30 000 ms, 0 for not at
   * all. The wait does not block the event loop for more than a fraction of a second at a time. The
   * engine never runs durable hooks unjournaled because of it: their emit reports them failed.
   */
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
  /**
   * How many times an entry may be taken to run without being cleared (its hooks crashed or killed
   * the process, or the engine kept closing before they ended) before it is dead-lettered: kept,
   * listed by `hookline journal ls`, never claimed again until `hookline journal retry ID`. Default 10.
   */
  readonly maxAttempts?: number;
}

/** The journal {@link sqliteJournal} returns: every optional member of {@link Journal} but `doWaitForWork` is there. */
export type SqliteJournal = Journal &
  Required<
    Pick<
      Journal,
      | 'doAttachProcess'
      | 'doEndProcessGroups'
      | 'doRetry'
      | 'stats'
      | 'doClose'
      | 'doRecordAttempts'
      | 'doPurge'
      | 'doDisableTarget'
      | 'doEnableTarget'
      | 'disabledTargets'
    >
  >;

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
export function sqliteJournal(settings: SqliteJournalSettings): SqliteJournal {
  const path = resolve(settings.path);
  const busyTimeoutMs = checkBusyTimeout(settings.busyTimeoutMs);
  const openSettings = {
    lockWaitMs: Math.min(busyTimeoutMs, BUSY_SLICE_MS),
    synchronous: settings.synchronous ?? 'full',
  } as const;
  let database: DatabaseSync | undefined;
  let host: string | undefined;

  // Every operation opens the database if needed and turns SQLite errors into JournalErrors. A
  // corrupted file is closed, so the next operation checks it again instead of using it.
  const open = (): DatabaseSync => (database ??= openJournalDatabase(path, openSettings));
  const failed = (error: unknown, waitedMs?: number): JournalError => {
    if (database !== undefined && isCorruption(error)) {
      try {
        database.close();
      } catch {
        // Closing a broken handle may fail too; it is dropped either way.
      }
      database = undefined;
    }
    return journalFailure(error, path, waitedMs === undefined ? undefined : { waitedMs, busyTimeoutMs });
  };
  // An operation of its own (not batched): tried again, the event loop free in between, while the
  // lock is busy and busyTimeoutMs has not passed.
  const use = async <T>(work: (db: DatabaseSync) => T): Promise<T> => {
    const since = Date.now();
    for (;;) {
      try {
        return work(open());
      } catch (error) {
        const waited = Date.now() - since;
        if (!isBusy(error) || waited >= busyTimeoutMs) throw failed(error, waited);
      }
      await new Promise((resolve) => setTimeout(resolve, busyPauseMs()));
    }
  };
  // Writes on the delivery path (record, claim, renew, complete, release, attempts) commit in groups.
  const batches = groupCommit(open, failed, { busyTimeoutMs });
  // The batch in which a claim found nothing due, until a write that may make an entry claimable:
  // the other claims of that batch (idle claim loops all ask at once) return at once.
  let nothingDueIn: object | undefined;
  // Writes of one statement: they need no savepoint of their own within a batch.
  const write = <T>(work: (db: DatabaseSync) => T, mayFreeEntries = false): Promise<T> =>
    batches.write((db) => {
      if (mayFreeEntries) nothingDueIn = undefined;
      return work(db);
    }, true);
  const hostIdentity = (): string => (host ??= settings.hostIdentity ?? localHostIdentity());
  // This process as the holder of what it records and claims: read once (its start time never changes,
  // and reading /proc for every record cost more than the insert).
  let holder: Holder | undefined;
  const self = (): Holder =>
    (holder ??= { host: hostIdentity(), pid: process.pid, start: processIdentity()?.start ?? '' });
  const maxAttempts = checkMaxAttempts(settings.maxAttempts);

  const journal = defineJournal({
    name: `@hookline/journal-sqlite (${path})`,
    // Seals bind to the file: a row copied in from another journal file does not verify here.
    scope: `sqlite:${path}`,
    doRecord(record: JournalRecord, owner: string, leaseMs: number) {
      return write((db) => {
        const now = Date.now();
        const me = self();
        const result = statement(
          db,
          `INSERT INTO ${JOURNAL_TABLE} (preset, event, context, hooks, created_at, attempts, owner, owner_host, owner_pid, owner_start, lease_expires_at, seal) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
        ).run(
          record.preset,
          record.event,
          JSON.stringify(record.context),
          JSON.stringify(record.hooks),
          now,
          owner,
          me.host,
          me.pid,
          me.start,
          now + leaseMs,
          record.seal ?? null,
        );
        return String(result.lastInsertRowid);
      }, leaseMs <= 0);
    },
    doClaim(owner: string, leaseMs: number) {
      // The entry comes with the groups its earlier holder left; the engine checks their seals and
      // asks doEndProcessGroups to end them. Nothing is signalled here.
      return batches.write((db, batch) => {
        if (nothingDueIn === batch) return undefined;
        const claimed = claimNext(db, owner, leaseMs, self(), maxAttempts);
        if (claimed === undefined) nothingDueIn = batch;
        return claimed;
      });
    },
    async doAttachProcess(id: string, owner: string, pid: number, seal: ProcessGroupSealer) {
      const holds = (): Promise<boolean> =>
        use(
          (db) =>
            statement(db, `SELECT 1 FROM ${JOURNAL_TABLE} WHERE id = ? AND owner = ?`).get(Number(id), owner) !==
            undefined,
        );
      const identity = processIdentity(pid);
      // A hook that already ended leaves nothing to end; one whose start time cannot be read could
      // never be told from a later process with its pid, so it is not recorded either.
      if (identity === undefined || identity.start === '') return holds();
      const group = { host: hostIdentity(), pid, start: identity.start };
      const sealed: JournalProcessGroup = { ...group, ...(await sealOf(seal, group)) };
      return use((db) => {
        const row = statement(db, `SELECT process_groups FROM ${JOURNAL_TABLE} WHERE id = ? AND owner = ?`).get(
          Number(id),
          owner,
        ) as { process_groups: string | null } | undefined;
        if (row === undefined) return false;
        const groups = [...parseGroups(row.process_groups), sealed];
        return (
          statement(db, `UPDATE ${JOURNAL_TABLE} SET process_groups = ? WHERE id = ? AND owner = ?`).run(
            JSON.stringify(groups),
            Number(id),
            owner,
          ).changes === 1
        );
      });
    },
    async doEndProcessGroups(id: string, owner: string, groups: readonly JournalProcessGroup[]) {
      const warnings = await endProcessGroups(groups, hostIdentity());
      // Forgotten only once handled: a claimant that dies meanwhile leaves them to the next.
      await use((db) =>
        statement(
          db,
          `UPDATE ${JOURNAL_TABLE} SET process_groups = NULL WHERE id = ? AND (owner = ? OR dead_at IS NOT NULL)`,
        ).run(Number(id), owner),
      );
      return warnings.map((warning) => `journal entry ${id}: ${warning}`);
    },
    doDeadLetter(id: string, owner: string, reason: string) {
      return write(
        (db) =>
          statement(
            db,
            `UPDATE ${JOURNAL_TABLE} SET dead_at = ?, last_error = ?, process_groups = NULL, owner = NULL, owner_host = NULL, owner_pid = NULL, owner_start = NULL, lease_expires_at = NULL WHERE id = ? AND owner = ? AND dead_at IS NULL`,
          ).run(Date.now(), reason, Number(id), owner).changes === 1,
      );
    },
    doRetry(id: string, options: JournalRetryOptions = {}) {
      // A new seal means a person vouched for the context, not for process groups it names.
      const vouched = options.seal === undefined ? '' : ', seal = $seal, process_groups = NULL';
      return use(
        (db) =>
          statement(
            db,
            `UPDATE ${JOURNAL_TABLE} SET dead_at = NULL, attempts = 0, available_at = 0${vouched} WHERE id = $id AND dead_at IS NOT NULL`,
          ).run({ id: Number(id), ...(options.seal === undefined ? {} : { seal: options.seal }) }).changes === 1,
      );
    },
    doRecordAttempts(id: string, owner: string, attempts: readonly JournalAttempt[], next: JournalNext) {
      return write((db) => {
        const row = statement(db, `SELECT deliveries FROM ${JOURNAL_TABLE} WHERE id = ? AND owner = ?`).get(
          Number(id),
          owner,
        ) as { deliveries: string | null } | undefined;
        if (row === undefined) return false;
        const deliveries = JSON.stringify([...parseAttempts(row.deliveries), ...attempts]);
        const released =
          'owner = NULL, owner_host = NULL, owner_pid = NULL, owner_start = NULL, lease_expires_at = NULL';
        if (next.deadLetter !== undefined) {
          statement(
            db,
            `UPDATE ${JOURNAL_TABLE} SET deliveries = ?, dead_at = ?, last_error = ?, process_groups = NULL, ${released} WHERE id = ?`,
          ).run(deliveries, Date.now(), next.deadLetter, Number(id));
        } else {
          // The hooks ended cleanly: a retry is not a crash, so the claims count from 0 again (maxAttempts is for crashes).
          statement(
            db,
            `UPDATE ${JOURNAL_TABLE} SET deliveries = ?, attempts = 0, available_at = ?, last_error = ?, ${released} WHERE id = ?`,
          ).run(deliveries, Date.now() + next.retryAfterMs, next.error, Number(id));
        }
        return true;
      }, next.deadLetter === undefined);
    },
    doPurge(before: number) {
      return use((db) =>
        Number(
          statement(db, `DELETE FROM ${JOURNAL_TABLE} WHERE dead_at IS NOT NULL AND dead_at < ?`).run(before).changes,
        ),
      );
    },
    async doDisableTarget(target: string, reason: string) {
      await use((db) =>
        statement(
          db,
          `INSERT INTO ${DISABLED_TARGETS_TABLE} (target, disabled_at, reason) VALUES (?, ?, ?) ON CONFLICT (target) DO NOTHING`,
        ).run(target, Date.now(), reason),
      );
    },
    doEnableTarget(target: string) {
      return use(
        (db) => statement(db, `DELETE FROM ${DISABLED_TARGETS_TABLE} WHERE target = ?`).run(target).changes === 1,
      );
    },
    disabledTargets() {
      return use((db) =>
        statement(db, `SELECT target, disabled_at, reason FROM ${DISABLED_TARGETS_TABLE} ORDER BY disabled_at`)
          .all()
          .map((row): DisabledTarget => ({
            target: String(row['target']),
            disabledAt: Number(row['disabled_at']),
            reason: String(row['reason']),
          })),
      );
    },
    doRenew(id: string, owner: string, leaseMs: number) {
      return write(
        (db) =>
          statement(db, `UPDATE ${JOURNAL_TABLE} SET lease_expires_at = ? WHERE id = ? AND owner = ?`).run(
            Date.now() + leaseMs,
            Number(id),
            owner,
          ).changes === 1,
      );
    },
    doComplete(id: string, owner: string) {
      return write(
        (db) =>
          statement(db, `DELETE FROM ${JOURNAL_TABLE} WHERE id = ? AND owner = ?`).run(Number(id), owner).changes === 1,
      );
    },
    doRelease(id: string, owner: string, error: string, retryAfterMs = 0) {
      return write(
        (db) =>
          statement(
            db,
            `UPDATE ${JOURNAL_TABLE} SET owner = NULL, owner_host = NULL, owner_pid = NULL, owner_start = NULL, lease_expires_at = NULL, last_error = ?, available_at = ? WHERE id = ? AND owner = ?`,
          ).run(error, Date.now() + retryAfterMs, Number(id), owner).changes === 1,
        true,
      );
    },
    list(query: JournalListQuery = {}) {
      const where = query.state === undefined ? '' : `WHERE ${STATE_CONDITIONS[query.state]}`;
      const limit =
        query.limit !== undefined && Number.isFinite(query.limit)
          ? `LIMIT ${Math.max(0, Math.floor(query.limit))}`
          : '';
      const parameters = query.state === undefined || query.state === 'dead-lettered' ? [] : [Date.now()];
      return use((db) =>
        // Not cached: the limit is part of the text.
        db
          .prepare(`SELECT * FROM ${JOURNAL_TABLE} ${where} ORDER BY id ${limit}`)
          .all(...parameters)
          .map((row) => toEntry(readJournalRow(row))),
      );
    },
    stats() {
      return use((db): JournalStats => {
        const now = Date.now();
        const row = statement(
          db,
          `SELECT count(*) FILTER (WHERE ${STATE_CONDITIONS.pending.replace('?', '$now')}) AS pending, count(*) FILTER (WHERE ${STATE_CONDITIONS.leased.replace('?', '$now')}) AS leased,
             count(*) FILTER (WHERE dead_at IS NOT NULL) AS dead, min(created_at) FILTER (WHERE dead_at IS NULL) AS oldest, max(attempts) FILTER (WHERE dead_at IS NULL) AS highest FROM ${JOURNAL_TABLE}`,
        ).get({ now }) as {
          pending: number;
          leased: number;
          dead: number;
          oldest: number | null;
          highest: number | null;
        };
        return {
          pending: row.pending,
          leased: row.leased,
          deadLettered: row.dead,
          highestAttempts: row.highest ?? 0,
          now,
          ...(row.oldest === null ? {} : { oldestCreatedAt: row.oldest }),
        };
      });
    },
    async doClose() {
      // Writes queued in this turn (or waiting for a busy lock) commit or fail before the file closes.
      await batches.flush();
      const open = database;
      database = undefined;
      open?.close();
    },
  });
  return journal as SqliteJournal;
}

// Each state of an entry as a condition on its row, `?` being now (see journalEntryState).
const STATE_CONDITIONS = {
  pending: 'dead_at IS NULL AND (owner IS NULL OR lease_expires_at <= ?)',
  leased: 'dead_at IS NULL AND owner IS NOT NULL AND lease_expires_at > ?',
  'dead-lettered': 'dead_at IS NOT NULL',
} as const;

// Candidates are read a page at a time: entries held by live engines of this host are skipped
// without loading the whole journal for every claim.
const CLAIM_PAGE = 64;

/** The process this journal runs in: the holder it writes into the entries it records and claims. */
interface Holder {
  readonly host: string;
  readonly pid: number;
  readonly start: string;
}

// Inside the claim's transaction: the oldest entry that is due and held by nobody — never leased,
// released, lease expired, or held by a process of this host that is gone (its pid no longer runs,
// or runs another process). An entry that has used its attempts is dead-lettered on the way, and
// returned as such when it still names process groups (for the engine to end).
function claimNext(
  db: DatabaseSync,
  owner: string,
  leaseMs: number,
  me: Holder,
  maxAttempts: number,
): JournalEntry | undefined {
  const now = Date.now();
  const page = statement(
    db,
    `SELECT * FROM ${JOURNAL_TABLE} WHERE id > ? AND dead_at IS NULL AND available_at <= ? AND (owner IS NULL OR lease_expires_at <= ? OR owner_host = ?) ORDER BY id LIMIT ${CLAIM_PAGE}`,
  );
  const alive = new Map<string, boolean>();
  let after = 0;
  for (;;) {
    const rows = page.all(after, now, now, me.host).map(readJournalRow);
    for (const row of rows) {
      const free = row.owner === null || (row.lease_expires_at ?? 0) <= now;
      if (!free) {
        const pid = row.owner_pid;
        // Our own process is alive by definition; an entry it holds belongs to a running engine.
        if (pid === null || (pid === me.pid && (row.owner_start ?? '') === me.start)) continue;
        const key = `${pid}/${row.owner_start ?? ''}`;
        let running = alive.get(key);
        if (running === undefined) alive.set(key, (running = isSameProcess({ pid, start: row.owner_start ?? '' })));
        if (running) continue;
      }
      if (row.attempts >= maxAttempts) {
        const reason = `dead-lettered after ${row.attempts} attempts${row.last_error === null ? '' : `; the last: ${row.last_error}`}`;
        statement(
          db,
          `UPDATE ${JOURNAL_TABLE} SET dead_at = ?, last_error = ?, owner = NULL, owner_host = NULL, owner_pid = NULL, owner_start = NULL, lease_expires_at = NULL WHERE id = ?`,
        ).run(now, reason, row.id);
        if (row.process_groups !== null)
          return toEntry({
            ...row,
            dead_at: now,
            last_error: reason,
            owner: null,
            owner_host: null,
            owner_pid: null,
            owner_start: null,
            lease_expires_at: null,
          });
        continue;
      }
      statement(
        db,
        `UPDATE ${JOURNAL_TABLE} SET owner = ?, owner_host = ?, owner_pid = ?, owner_start = ?, lease_expires_at = ?, attempts = attempts + 1 WHERE id = ?`,
      ).run(owner, me.host, me.pid, me.start, now + leaseMs, row.id);
      return toEntry({
        ...row,
        owner,
        owner_host: me.host,
        owner_pid: me.pid,
        owner_start: me.start,
        lease_expires_at: now + leaseMs,
        attempts: row.attempts + 1,
      });
    }
    if (rows.length < CLAIM_PAGE) return undefined;
    after = rows[rows.length - 1]!.id;
  }
}

function checkBusyTimeout(value: number | undefined): number {
  if (value === undefined) return DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isInteger(value) || value < 0)
    throw new InvalidOptionError(
      'sqliteJournal',
      'busyTimeoutMs',
      `busyTimeoutMs must be a whole number of milliseconds, 0 or more, got ${value}.`,
    );
  return value;
}

function checkMaxAttempts(value: number | undefined): number {
  if (value === undefined) return 10;
  if (!Number.isInteger(value) || value < 1)
    throw new InvalidOptionError(
      'sqliteJournal',
      'maxAttempts',
      `maxAttempts must be an integer of at least 1, got ${value}.`,
    );
  return value;
}

function parseAttempts(text: string | null): JournalAttempt[] {
  if (text === null) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as JournalAttempt[]) : [];
  } catch {
    return [];
  }
}

function parseGroups(text: string | null): JournalProcessGroup[] {
  if (text === null) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as JournalProcessGroup[]) : [];
  } catch {
    return [];
  }
}

// The seal the engine gives a group, when it seals.
async function sealOf(seal: ProcessGroupSealer, group: Omit<JournalProcessGroup, 'seal'>): Promise<{ seal?: string }> {
  const made = await seal(group);
  return made === undefined ? {} : { seal: made };
}

function toEntry(row: JournalRow): JournalEntry {
  const groups = parseGroups(row.process_groups);
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
    ...(groups.length === 0 ? {} : { processGroups: groups }),
    ...(row.dead_at === null ? {} : { deadLetteredAt: row.dead_at }),
    ...(row.seal === null ? {} : { seal: row.seal }),
    ...(row.deliveries === null ? {} : { deliveries: parseAttempts(row.deliveries) }),
  };
}
