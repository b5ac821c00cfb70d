import process from 'node:process';
import {
  defineJournal,
  InvalidOptionError,
  type DisabledTarget,
  type Journal,
  type JournalAttempt,
  type JournalNext,
  type JournalEntry,
  type JournalEntryState,
  type JournalListQuery,
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
import type { RowList, Sql } from 'postgres';
import { openPostgres } from './open-postgres.ts';
import { describePostgresFailure } from './postgres-failure.ts';
import { redactUrl, secretsOf } from './redact-url.ts';
import { tableNames } from './table-names.ts';
import { createWakeups } from './wakeups.ts';

/** Settings of {@link postgresJournal}. */
export interface PostgresJournalSettings {
  /**
   * `postgres://user[:password]@host[:port]/database` (or `postgresql://`). Without a password in
   * the URL, `PGPASSWORD` is used. Messages show the URL with `***` for the password.
   */
  readonly url: string;
  /** The PostgreSQL schema of the tables, made when missing. Default `public`. */
  readonly schema?: string;
  /** Prefix of the table names: `<prefix>journal` and `<prefix>meta`. Default `hookline_`. */
  readonly tablePrefix?: string;
  /**
   * How many times an entry may be taken to run without being cleared before it is dead-lettered:
   * kept and listed, never claimed again until `doRetry(id)`. Default 10, as `@hookline/journal-sqlite`.
   */
  readonly maxAttempts?: number;
  /** Connections of the pool (one more listens for NOTIFY once something waits for work). Default 10. */
  readonly maxConnections?: number;
  /** Seconds to wait for a connection before the server counts as unreachable. Default 10. */
  readonly connectTimeoutSeconds?: number;
  /**
   * How long one statement waits for a lock another session holds (the server's `lock_timeout`, set
   * at connect) before it fails with a busy `JournalError` (`busy: true`, code `HOOKLINE_JOURNAL_BUSY`),
   * as `@hookline/journal-sqlite`'s `busyTimeoutMs`: an emit's durable hooks are then reported failed,
   * never run unjournaled. Default 30 000 ms. 0 sends no setting, for a connection pooler that refuses
   * startup parameters: the server's or role's `lock_timeout` then applies (PostgreSQL's default waits forever).
   */
  readonly lockTimeoutMs?: number;
  /**
   * Names this machine, so that entries held by a process of it that is gone are reclaimed at once
   * instead of when their lease ends. Default: host name, boot id and pid namespace.
   */
  readonly hostIdentity?: string;
}

/** The journal {@link postgresJournal} returns: every optional member of {@link Journal} is there. */
export type PostgresJournal = Journal &
  Required<
    Pick<
      Journal,
      | 'doAttachProcess'
      | 'doEndProcessGroups'
      | 'doRetry'
      | 'stats'
      | 'doWaitForWork'
      | 'doClose'
      | 'doRecordAttempts'
      | 'doPurge'
      | 'doDisableTarget'
      | 'doEnableTarget'
      | 'disabledTargets'
    >
  >;

/** A clear waiting for a claim to carry it: `doComplete`'s promise, answered when the clear was made. */
interface WaitingClear {
  readonly id: string;
  readonly owner: string;
  resolve(cleared: boolean): void;
  reject(error: unknown): void;
}

/** A row as the client returns it: bigint as text, timestamptz as Date, json parsed. */
interface Row {
  readonly id: string;
  readonly preset: string;
  readonly event: string;
  readonly context: Record<string, unknown>;
  readonly hooks: string[];
  readonly created_at: Date;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly owner: string | null;
  readonly lease_until: Date | null;
  readonly process_groups: JournalProcessGroup[] | null;
  readonly dead_at: Date | null;
  readonly seal: string | null;
  readonly deliveries?: JournalAttempt[] | null;
}

// Each state of an entry as a condition on its row (see journalEntryState), on the server's clock.
const STATE_CONDITIONS: Readonly<Record<JournalEntryState, string>> = {
  pending: 'dead_at IS NULL AND (owner IS NULL OR lease_until <= now())',
  leased: 'dead_at IS NULL AND owner IS NOT NULL AND lease_until > now()',
  'dead-lettered': 'dead_at IS NOT NULL',
};

// The insert of a recorded entry, held by its recorder ($5–$8) for $9 ms.
const INSERT_ENTRY = (table: string): string =>
  `INSERT INTO ${table} (preset, event, context, hooks, attempts, owner, owner_host, owner_pid, owner_start, lease_until, seal)
   VALUES ($1::text, $2::text, $3::text::json, $4::text::json, 1, $5::text, $6::text, $7::integer, $8::text, now() + $9::float8 * interval '1 millisecond', $10::text)`;

// A holder's process of this host that is gone is looked for at most this often (it reads /proc).
const GONE_HOLDERS_EVERY_MS = 500;

/**
 * A {@link Journal} in PostgreSQL, shared by every process on every machine that uses the same URL,
 * schema and prefix. A claim is one statement: it takes the oldest due entry nobody holds with
 * `FOR UPDATE SKIP LOCKED` (concurrent claimants skip each other's rows instead of waiting), counts
 * the attempt and sets the lease — or dead-letters an entry that used its attempts. Leases run on the
 * server's clock. Entries that become claimable are announced with NOTIFY, which `doWaitForWork`
 * listens for. The client (`postgres`) is loaded on first use; the tables are made or migrated then.
 *
 * ```ts
 * const engine = createHookEngine({ config, runners, journal: postgresJournal({ url: process.env.HOOKLINE_JOURNAL! }) });
 * ```
 */
export function postgresJournal(settings: PostgresJournalSettings): PostgresJournal {
  if (!/^postgres(ql)?:\/\//.test(settings.url))
    throw new InvalidOptionError(
      'postgresJournal',
      'url',
      `url must be a postgres:// or postgresql:// URL, got ${JSON.stringify(redactUrl(settings.url))}.`,
    );
  const names = tableNames(settings.schema ?? 'public', settings.tablePrefix ?? 'hookline_');
  const maxAttempts = positiveInteger('maxAttempts', settings.maxAttempts, 10);
  const connect = {
    url: settings.url,
    maxConnections: positiveInteger('maxConnections', settings.maxConnections, 10),
    connectTimeoutSeconds: positiveInteger('connectTimeoutSeconds', settings.connectTimeoutSeconds, 10),
    lockTimeoutMs: lockTimeout(settings.lockTimeoutMs),
  };
  const shown = redactUrl(settings.url);
  const fail = (error: unknown): Error =>
    describePostgresFailure(error, shown, secretsOf(settings.url, process.env['PGPASSWORD']), connect.lockTimeoutMs);
  const table = names.journal;

  let opening: Promise<Sql> | undefined;
  const open = (): Promise<Sql> => {
    opening ??= openPostgres(connect, names, shown).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  // The row type is the caller's word for what its SQL selects; postgres.js takes it as a type argument.
  const query = async <T>(text: string, parameters: readonly unknown[] = []): Promise<RowList<T[]>> => {
    try {
      const sql = await open();
      return await sql.unsafe<T[]>(text, parameters as never[], { prepare: true });
    } catch (error) {
      throw fail(error);
    }
  };

  let host: string | undefined;
  const hostIdentity = (): string => (host ??= settings.hostIdentity ?? localHostIdentity());
  // This process, as the holder written into the entries it records and claims (read once: it never changes).
  let thisProcess: { pid: number; start: string } | undefined;
  const me = (): { pid: number; start: string } =>
    (thisProcess ??= { pid: process.pid, start: processIdentity()?.start ?? '' });

  // Holders of this host whose process is gone, as `pid/start`, refreshed when a claim finds nothing.
  let goneHolders = '';
  let goneCheckedAt = 0;
  const refreshGoneHolders = async (): Promise<boolean> => {
    if (Date.now() - goneCheckedAt < GONE_HOLDERS_EVERY_MS) return false;
    goneCheckedAt = Date.now();
    const holder = me();
    const holders = await query<{ owner_pid: number; owner_start: string }>(
      `SELECT DISTINCT owner_pid, owner_start FROM ${table} WHERE dead_at IS NULL AND owner_host = $1 AND lease_until > now()`,
      [hostIdentity()],
    );
    goneHolders = holders
      .filter((row) => !(row.owner_pid === holder.pid && row.owner_start === holder.start))
      .filter((row) => !isSameProcess({ pid: row.owner_pid, start: row.owner_start }))
      .map((row) => `${row.owner_pid}/${row.owner_start}`)
      .join(',');
    return goneHolders !== '';
  };

  // One statement (see the claim function in postgres-schema.ts): the oldest due entry that nobody
  // holds, or whose holder is a gone process of this host, leased to `owner` — or dead-lettered.
  const claimOnce = async (owner: string, leaseMs: number): Promise<Row | undefined> => {
    const clear = takeWaitingClear(owner);
    const holder = me();
    const claim = [owner, holder.pid, holder.start, leaseMs, hostIdentity(), goneHolders, maxAttempts];
    if (clear === undefined) {
      const [row] = await query<Row>(
        `SELECT * FROM ${names.claimFunction}($1::text, $2::integer, $3::text, $4::float8, $5::text, $6::text, $7::integer)`,
        claim,
      );
      return row;
    }
    let result: RowList<Array<{ cleared: boolean } & (Row | { [key in keyof Row]: null })>>;
    try {
      result = await query(
        `SELECT cleared, (entry).* FROM ${names.claimNextFunction}($1::bigint, $2::text, $3::integer, $4::text, $5::float8, $6::text, $7::text, $8::integer)`,
        [clear.id, ...claim],
      );
    } catch (error) {
      clear.reject(error);
      throw error;
    }
    const { cleared, ...row } = result[0]!;
    clear.resolve(cleared);
    return row.id === null ? undefined : row;
  };

  // Clears (doComplete) wait until the promise callbacks queued with them have run, for a claim by
  // the same holder, which carries them (see the claim_next function); the rest are sent on their own
  // then. A claimer that clears an entry and claims the next one at once waits for one round trip
  // instead of two.
  let waitingClears: WaitingClear[] = [];
  const sendWaitingClears = (): void => {
    const clears = waitingClears;
    waitingClears = [];
    for (const clear of clears) {
      query(`DELETE FROM ${table} WHERE id = $1::bigint AND owner = $2::text`, [clear.id, clear.owner]).then(
        (result) => clear.resolve(result.count === 1),
        (error: unknown) => clear.reject(error),
      );
    }
  };
  const takeWaitingClear = (owner: string): WaitingClear | undefined => {
    const index = waitingClears.findIndex((clear) => clear.owner === owner);
    return index < 0 ? undefined : waitingClears.splice(index, 1)[0];
  };

  const wakeups = createWakeups();
  let listening: Promise<unknown> | undefined;
  // LISTEN on a connection of its own, which the client re-opens (and LISTENs again) after it drops;
  // each (re)start is announced too, since whatever was notified meanwhile was missed.
  const listen = (): Promise<unknown> => {
    listening ??= open()
      .then((sql) =>
        sql.listen(
          names.channel,
          () => wakeups.announce(),
          () => wakeups.announce(),
        ),
      )
      .catch((error: unknown) => {
        listening = undefined;
        throw fail(error);
      });
    return listening;
  };

  const journal = defineJournal({
    name: `@hookline/journal-postgres (${shown})`,
    // Seals bind to the database and tables, not to how a worker reaches the server (its host name).
    scope: `postgres:${databaseOf(settings.url)}/${names.journal}`,
    async doRecord(record: JournalRecord, owner: string, leaseMs: number) {
      const holder = me();
      const parameters = [
        record.preset,
        record.event,
        JSON.stringify(record.context),
        JSON.stringify(record.hooks),
        owner,
        hostIdentity(),
        holder.pid,
        holder.start,
        leaseMs,
        record.seal ?? null,
      ];
      // An entry its recorder runs is nobody else's business until released; one recorded with no
      // lease (for others to run) is claimable at once, and announced.
      const [row] =
        leaseMs > 0
          ? await query<{ id: string }>(`${INSERT_ENTRY(table)} RETURNING id`, parameters)
          : await query<{ id: string }>(
              `WITH entry AS (${INSERT_ENTRY(table)} RETURNING id) SELECT id, pg_notify($11::text, '') FROM entry`,
              [...parameters, names.channel],
            );
      return row!.id;
    },
    async doClaim(owner: string, leaseMs: number) {
      for (;;) {
        let row = await claimOnce(owner, leaseMs);
        if (row === undefined && (await refreshGoneHolders())) row = await claimOnce(owner, leaseMs);
        if (row === undefined) return undefined;
        // The entry comes with the groups an earlier holder left; the engine checks their seals and
        // asks doEndProcessGroups to end them. A dead-lettered one comes back only to have its groups ended.
        if (row.dead_at === null || (row.process_groups ?? []).length > 0) return toEntry(row);
      }
    },
    async doRenew(id: string, owner: string, leaseMs: number) {
      if (!isEntryId(id)) return false;
      const result = await query(
        `UPDATE ${table} SET lease_until = now() + $3::float8 * interval '1 millisecond' WHERE id = $1::bigint AND owner = $2::text`,
        [id, owner, leaseMs],
      );
      return result.count === 1;
    },
    async doComplete(id: string, owner: string) {
      if (!isEntryId(id)) return false;
      return new Promise<boolean>((resolve, reject) => {
        // process.nextTick runs once the promise callbacks queued now have run: long enough for
        // a claimer that goes straight on to claim, and no later than the client would write anyway.
        if (waitingClears.length === 0) process.nextTick(sendWaitingClears);
        waitingClears.push({ id, owner, resolve, reject });
      });
    },
    async doRelease(id: string, owner: string, error: string, retryAfterMs = 0) {
      if (!isEntryId(id)) return false;
      // Announced only when claimable at once; a later retry time is found by a waiter's bounded wait.
      const rows = await query(
        `WITH released AS (
           UPDATE ${table} SET owner = NULL, owner_host = NULL, owner_pid = NULL, owner_start = NULL, lease_until = NULL,
             last_error = $3::text, available_at = now() + $4::float8 * interval '1 millisecond'
           WHERE id = $1::bigint AND owner = $2::text RETURNING id
         )
         SELECT id, CASE WHEN $4::float8 <= 0 THEN pg_notify($5::text, '') END FROM released`,
        [id, owner, error, retryAfterMs, names.channel],
      );
      return rows.length === 1;
    },
    async doAttachProcess(id: string, owner: string, pid: number, seal: ProcessGroupSealer) {
      if (!isEntryId(id)) return false;
      const identity = processIdentity(pid);
      // A hook that already ended leaves nothing to end, and one whose start time cannot be read could
      // never be told from a later process with its pid; the answer still says who holds the entry.
      const groups: JournalProcessGroup[] = [];
      if (identity !== undefined && identity.start !== '') {
        const group = { host: hostIdentity(), pid, start: identity.start };
        const made = await seal(group);
        groups.push(made === undefined ? group : { ...group, seal: made });
      }
      const result = await query(
        `UPDATE ${table} SET process_groups = coalesce(process_groups, '[]'::jsonb) || $3::text::jsonb WHERE id = $1::bigint AND owner = $2::text`,
        [id, owner, JSON.stringify(groups)],
      );
      return result.count === 1;
    },
    async doEndProcessGroups(id: string, owner: string, groups: readonly JournalProcessGroup[]) {
      if (!isEntryId(id)) return [];
      const warnings = await endProcessGroups(groups, hostIdentity());
      // Forgotten only once handled: a claimant that dies meanwhile leaves them to the next.
      await query(
        `UPDATE ${table} SET process_groups = NULL WHERE id = $1::bigint AND (owner = $2::text OR dead_at IS NOT NULL)`,
        [id, owner],
      );
      return warnings.map((warning) => `journal entry ${id}: ${warning}`);
    },
    async doDeadLetter(id: string, owner: string, reason: string) {
      if (!isEntryId(id)) return false;
      const result = await query(
        `UPDATE ${table} SET dead_at = now(), last_error = $3::text, process_groups = NULL, owner = NULL, owner_host = NULL, owner_pid = NULL, owner_start = NULL, lease_until = NULL
         WHERE id = $1::bigint AND owner = $2::text AND dead_at IS NULL`,
        [id, owner, reason],
      );
      return result.count === 1;
    },
    async doRecordAttempts(id: string, owner: string, attempts: readonly JournalAttempt[], next: JournalNext) {
      if (!isEntryId(id)) return false;
      const released = 'owner = NULL, owner_host = NULL, owner_pid = NULL, owner_start = NULL, lease_until = NULL';
      const appended = `deliveries = coalesce(deliveries, '[]'::jsonb) || $3::text::jsonb`;
      if (next.deadLetter !== undefined) {
        const result = await query(
          `UPDATE ${table} SET ${appended}, dead_at = now(), last_error = $4::text, process_groups = NULL, ${released} WHERE id = $1::bigint AND owner = $2::text`,
          [id, owner, JSON.stringify(attempts), next.deadLetter],
        );
        return result.count === 1;
      }
      // The hooks ended cleanly: a retry is not a crash, so the claims count from 0 again (maxAttempts is for crashes).
      const rows = await query(
        `WITH released AS (
           UPDATE ${table} SET ${appended}, attempts = 0, last_error = $4::text, available_at = now() + $5::float8 * interval '1 millisecond', ${released}
           WHERE id = $1::bigint AND owner = $2::text RETURNING id
         )
         SELECT id, CASE WHEN $5::float8 <= 0 THEN pg_notify($6::text, '') END FROM released`,
        [id, owner, JSON.stringify(attempts), next.error, next.retryAfterMs, names.channel],
      );
      return rows.length === 1;
    },
    async doPurge(before: number) {
      const result = await query(
        `DELETE FROM ${table} WHERE dead_at IS NOT NULL AND dead_at < to_timestamp($1::float8 / 1000)`,
        [before],
      );
      return result.count;
    },
    async doDisableTarget(target: string, reason: string) {
      await query(
        `INSERT INTO ${names.disabledTargets} (target, reason) VALUES ($1::text, $2::text) ON CONFLICT (target) DO NOTHING`,
        [target, reason],
      );
    },
    async doEnableTarget(target: string) {
      return (await query(`DELETE FROM ${names.disabledTargets} WHERE target = $1::text`, [target])).count === 1;
    },
    async disabledTargets() {
      const rows = await query<{ target: string; disabled_at: Date; reason: string }>(
        `SELECT target, disabled_at, reason FROM ${names.disabledTargets} ORDER BY disabled_at`,
      );
      return rows.map((row): DisabledTarget => ({
        target: row.target,
        disabledAt: row.disabled_at.getTime(),
        reason: row.reason,
      }));
    },
    async doRetry(id: string, options: JournalRetryOptions = {}) {
      if (!isEntryId(id)) return false;
      // A new seal means a person vouched for the context, not for process groups it names.
      const rows = await query(
        `WITH retried AS (
           UPDATE ${table} SET dead_at = NULL, attempts = 0, available_at = now(),
             seal = CASE WHEN $3::text IS NULL THEN seal ELSE $3::text END,
             process_groups = CASE WHEN $3::text IS NULL THEN process_groups END
           WHERE id = $1::bigint AND dead_at IS NOT NULL RETURNING id
         )
         SELECT id, pg_notify($2::text, '') FROM retried`,
        [id, names.channel, options.seal ?? null],
      );
      return rows.length === 1;
    },
    async list(listQuery: JournalListQuery = {}) {
      const where = listQuery.state === undefined ? '' : `WHERE ${STATE_CONDITIONS[listQuery.state]}`;
      const limit =
        listQuery.limit !== undefined && Number.isFinite(listQuery.limit)
          ? `LIMIT ${Math.max(0, Math.floor(listQuery.limit))}`
          : '';
      return (await query<Row>(`SELECT * FROM ${table} ${where} ORDER BY id ${limit}`)).map(toEntry);
    },
    async stats(): Promise<JournalStats> {
      const [row] = await query<{
        pending: string;
        leased: string;
        dead: string;
        oldest: Date | null;
        highest: number | null;
        now: Date;
      }>(
        `SELECT count(*) FILTER (WHERE ${STATE_CONDITIONS.pending}) AS pending, count(*) FILTER (WHERE ${STATE_CONDITIONS.leased}) AS leased,
           count(*) FILTER (WHERE dead_at IS NOT NULL) AS dead, min(created_at) FILTER (WHERE dead_at IS NULL) AS oldest,
           max(attempts) FILTER (WHERE dead_at IS NULL) AS highest, now() AS now
         FROM ${table}`,
      );
      const stats = {
        pending: Number(row!.pending),
        leased: Number(row!.leased),
        deadLettered: Number(row!.dead),
        highestAttempts: row!.highest ?? 0,
        now: row!.now.getTime(),
      };
      return row!.oldest === null ? stats : { ...stats, oldestCreatedAt: row!.oldest.getTime() };
    },
    async doWaitForWork(maxWaitMs: number, signal?: AbortSignal) {
      if (signal?.aborted === true) return false;
      await listen();
      return wakeups.wait(maxWaitMs, signal);
    },
    async doClose() {
      // Clears still waiting for a claim go out now, ahead of the pool's end.
      sendWaitingClears();
      const closing = opening;
      opening = undefined;
      listening = undefined;
      wakeups.endAll();
      if (closing !== undefined) await (await closing.catch(() => undefined))?.end({ timeout: 5 });
    },
  });
  return journal as PostgresJournal;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new InvalidOptionError('postgresJournal', name, `${name} must be an integer of at least 1, got ${value}.`);
  return value;
}

function lockTimeout(value: number | undefined): number {
  if (value === undefined) return 30_000;
  // The server takes an int of milliseconds (at most 2^31 - 1).
  if (!Number.isInteger(value) || value < 0 || value > 2_147_483_647)
    throw new InvalidOptionError(
      'postgresJournal',
      'lockTimeoutMs',
      `lockTimeoutMs must be a whole number of milliseconds from 0 to 2147483647, got ${value}.`,
    );
  return value;
}

// Ids are positive bigints; anything else names no entry (and must not reach the server as one).
function isEntryId(id: string): boolean {
  return /^[1-9]\d{0,17}$/.test(id);
}

function toEntry(row: Row): JournalEntry {
  const groups = row.process_groups ?? [];
  return {
    id: row.id,
    preset: row.preset,
    event: row.event,
    context: row.context,
    hooks: row.hooks,
    createdAt: row.created_at.getTime(),
    attempts: row.attempts,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.owner === null ? {} : { owner: row.owner }),
    ...(row.lease_until === null ? {} : { leaseExpiresAt: row.lease_until.getTime() }),
    ...(groups.length === 0 ? {} : { processGroups: groups }),
    ...(row.dead_at === null ? {} : { deadLetteredAt: row.dead_at.getTime() }),
    ...(row.seal === null || row.seal === undefined ? {} : { seal: row.seal }),
    ...(row.deliveries === null || row.deliveries === undefined ? {} : { deliveries: row.deliveries }),
  };
}

// The database a URL names (its path), which with the schema and table names identifies the store.
function databaseOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  } catch {
    return '';
  }
}
