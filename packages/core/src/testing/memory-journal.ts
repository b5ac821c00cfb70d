import {
  defineJournal,
  journalEntryState,
  type DisabledTarget,
  type Journal,
  type JournalEntry,
  type JournalStats,
} from '../plugins/journal.ts';

/** A journal that lives in memory, with a way to look inside. */
export interface MemoryJournal extends Journal {
  /** Every pending entry now, oldest first (synchronous `list()`). */
  readonly entries: readonly JournalEntry[];
}

interface Row {
  entry: JournalEntry;
  availableAt: number;
}

/**
 * A {@link Journal} held in memory (`maxAttempts`: claims before an entry is dead-lettered, default
 * no limit): leases, attempts, last errors and retry times as a real journal
 * keeps them, nothing on disk. For engine tests and demos — and for durable hooks that need to
 * survive an engine, not a process: share one instance between engines of one process.
 */
export function memoryJournal(settings: { readonly maxAttempts?: number } = {}): MemoryJournal {
  // Unlimited unless asked: a memory journal lives as long as its process, which a poison entry would end anyway.
  const maxAttempts = settings.maxAttempts ?? Number.POSITIVE_INFINITY;
  const rows = new Map<string, Row>();
  const disabled = new Map<string, DisabledTarget>();
  let nextId = 1;
  // An expired lease still counts as held until someone else claims the entry: nobody was harmed.
  const holds = (row: Row | undefined, owner: string): row is Row => row !== undefined && row.entry.owner === owner;
  const withoutLease = (entry: JournalEntry): JournalEntry => {
    const { owner: _owner, leaseExpiresAt: _lease, ...rest } = entry;
    return rest;
  };
  const journal = defineJournal({
    name: 'memory',
    // Seals bind to it: an entry copied from one memory journal into another does not verify.
    scope: `memory:${crypto.randomUUID()}`,
    async doRecord(record, owner, leaseMs) {
      const id = String(nextId++);
      const entry: JournalEntry = {
        id,
        preset: record.preset,
        event: record.event,
        // A copy, as a journal on disk would keep: later changes to the host's object do not leak in.
        context: structuredClone(record.context),
        hooks: [...record.hooks],
        ...(record.seal === undefined ? {} : { seal: record.seal }),
        createdAt: Date.now(),
        attempts: 1,
        owner,
        leaseExpiresAt: Date.now() + leaseMs,
      };
      rows.set(id, { entry, availableAt: 0 });
      return id;
    },
    async doClaim(owner, leaseMs) {
      const now = Date.now();
      for (const row of rows.values()) {
        const free = row.entry.owner === undefined || (row.entry.leaseExpiresAt ?? 0) <= now;
        if (!free || row.availableAt > now || row.entry.deadLetteredAt !== undefined) continue;
        if (row.entry.attempts >= maxAttempts) {
          const { processGroups: _groups, ...rest } = withoutLease(row.entry);
          row.entry = {
            ...rest,
            deadLetteredAt: now,
            lastError: `dead-lettered after ${row.entry.attempts} attempts${row.entry.lastError === undefined ? '' : `; the last: ${row.entry.lastError}`}`,
          };
          continue;
        }
        row.entry = { ...row.entry, attempts: row.entry.attempts + 1, owner, leaseExpiresAt: now + leaseMs };
        return row.entry;
      }
      return undefined;
    },
    async doRenew(id, owner, leaseMs) {
      const row = rows.get(id);
      if (!holds(row, owner)) return false;
      row.entry = { ...row.entry, leaseExpiresAt: Date.now() + leaseMs };
      return true;
    },
    async doComplete(id, owner) {
      if (!holds(rows.get(id), owner)) return false;
      rows.delete(id);
      return true;
    },
    async doRelease(id, owner, error, retryAfterMs = 0) {
      const row = rows.get(id);
      if (!holds(row, owner)) return false;
      row.entry = { ...withoutLease(row.entry), lastError: error };
      row.availableAt = Date.now() + retryAfterMs;
      return true;
    },
    async doDeadLetter(id, owner, reason) {
      const row = rows.get(id);
      if (!holds(row, owner)) return false;
      const { processGroups: _groups, ...rest } = withoutLease(row.entry);
      row.entry = { ...rest, lastError: reason, deadLetteredAt: Date.now() };
      return true;
    },
    async doRecordAttempts(id, owner, attempts, next) {
      const row = rows.get(id);
      if (!holds(row, owner)) return false;
      const deliveries = [...(row.entry.deliveries ?? []), ...attempts];
      const kept = { ...withoutLease(row.entry), deliveries };
      if (next.deadLetter !== undefined) {
        const { processGroups: _groups, ...rest } = kept;
        row.entry = { ...rest, lastError: next.deadLetter, deadLetteredAt: Date.now() };
        return true;
      }
      // The hooks ended cleanly: the retry is not a crash, so the claim count starts again.
      row.entry = { ...kept, attempts: 0, lastError: next.error };
      row.availableAt = Date.now() + next.retryAfterMs;
      return true;
    },
    async doRetry(id, options = {}) {
      const row = rows.get(id);
      if (row?.entry.deadLetteredAt === undefined) return false;
      const { deadLetteredAt: _dead, ...rest } = row.entry;
      row.entry = { ...rest, attempts: 0, ...(options.seal === undefined ? {} : { seal: options.seal }) };
      row.availableAt = 0;
      return true;
    },
    async doPurge(before) {
      let purged = 0;
      for (const [id, row] of rows) {
        if (row.entry.deadLetteredAt !== undefined && row.entry.deadLetteredAt < before) {
          rows.delete(id);
          purged++;
        }
      }
      return purged;
    },
    async doDisableTarget(target, reason) {
      if (!disabled.has(target)) disabled.set(target, { target, reason, disabledAt: Date.now() });
    },
    async doEnableTarget(target) {
      return disabled.delete(target);
    },
    async disabledTargets() {
      return [...disabled.values()];
    },
    async list(query = {}) {
      const now = Date.now();
      const entries = [...rows.values()]
        .map((row) => row.entry)
        .filter((entry) => query.state === undefined || journalEntryState(entry, now) === query.state);
      return entries.slice(0, query.limit ?? entries.length);
    },
    async stats() {
      const now = Date.now();
      const all = [...rows.values()].map((row) => row.entry);
      const live = all.filter((entry) => entry.deadLetteredAt === undefined);
      const leased = live.filter((entry) => journalEntryState(entry, now) === 'leased').length;
      const stats: JournalStats = {
        pending: live.length - leased,
        leased,
        deadLettered: all.length - live.length,
        highestAttempts: Math.max(0, ...live.map((entry) => entry.attempts)),
        now,
      };
      return live[0] === undefined ? stats : { ...stats, oldestCreatedAt: live[0].createdAt };
    },
  });
  return Object.defineProperty(journal, 'entries', {
    get: () => [...rows.values()].map((row) => row.entry),
    enumerable: true,
  }) as MemoryJournal;
}
