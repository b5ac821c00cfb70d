import { createInFlight } from '../plugins/create-in-flight.ts';
import type { Journal, JournalEntry, JournalRecord } from '../plugins/journal.ts';
import { messageOf } from '../errors/message-of.ts';

/** A journal entry this engine holds: its lease is renewed until it is finished. */
export interface HeldEntry {
  readonly id: string;
  /** The entry as claimed; absent for one this engine recorded itself. */
  readonly entry?: JournalEntry;
  /**
   * Clears the entry (its hooks ran), or, when `stoppedBecause` is given, releases it so that it
   * runs again. Resolves to a warning when the journal could not do it, else `undefined`.
   */
  finish(stoppedBecause?: string): Promise<string | undefined>;
  /** Gives the entry back without running it, claimable again after `retryAfterMs`. */
  release(error: string, retryAfterMs: number): Promise<void>;
  /** Records a process group one of its hooks started (where the journal can); never throws. */
  attach(pid: number): void;
}

/** The engine's side of a journal: recording, claiming, and the leases of the entries it holds. */
export interface Durability {
  /**
   * Journals an emit's durable hooks; a failure is a warning for the outcome, never an exception.
   * An engine that only records (`recordOnly`) leaves the entry to others: it is not held.
   */
  record(record: JournalRecord): Promise<{ readonly held?: HeldEntry; readonly warning?: string }>;
  /** The engine records durable hooks for other engines to run (`durableHooks: 'record'`). */
  readonly recordOnly: boolean;
  /** Claims the next pending entry; rejects when the journal fails (a corrupted file). */
  claim(): Promise<HeldEntry | undefined>;
  /** Resolves when no journal operation of this engine is in flight. */
  idle(): Promise<void>;
  /** Stops renewing leases; entries still held keep theirs until they expire or are released. */
  stop(): void;
}

/** How {@link createDurability} leases entries. */
export interface DurabilitySettings {
  readonly journal: Journal;
  /** Identifies this engine as the holder of its entries; unique per engine. */
  readonly owner: string;
  /** How long a lease lasts; it is renewed every third of it while the entry is held. */
  readonly leaseMs: number;
  /** Record entries for other engines to claim (a lease that has already ended), instead of holding them. */
  readonly recordOnly?: boolean;
}

/**
 * Keeps the leases of the entries an engine holds alive with one timer (not one per entry: a burst
 * of a thousand emits queues a thousand entries behind the concurrency limit), and turns journal
 * failures into warnings wherever a host call is waiting.
 */
export function createDurability(settings: DurabilitySettings): Durability {
  const { journal, owner, leaseMs } = settings;
  const held = new Map<string, { lost: boolean }>();
  const inFlight = createInFlight();
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

  const watch = <T>(work: Promise<T>): Promise<T> => inFlight.track(work);
  const renewAll = (): void => {
    for (const [id, state] of held) {
      watch(journal.doRenew(id, owner, leaseMs)).then(
        (kept) => {
          if (!kept) state.lost = true;
        },
        // A journal that fails now may work at the next tick; the lease has two more ticks to live.
        () => undefined,
      );
    }
  };
  const release = (id: string): void => {
    held.delete(id);
    if (held.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const hold = (id: string, entry?: JournalEntry): HeldEntry => {
    const state = { lost: false };
    held.set(id, state);
    if (timer === undefined && !stopped) timer = setInterval(renewAll, Math.max(1, Math.floor(leaseMs / 3)));
    const label = `journal entry ${id}`;
    return {
      id,
      ...(entry === undefined ? {} : { entry }),
      async finish(stoppedBecause) {
        release(id);
        if (state.lost) return `${label} was taken over by another engine after its lease expired while its hooks ran; they may have run twice`;
        try {
          if (stoppedBecause !== undefined) {
            await watch(journal.doRelease(id, owner, stoppedBecause, 0));
            return undefined;
          }
          const cleared = await watch(journal.doComplete(id, owner));
          return cleared ? undefined : `${label} was taken over by another engine after its lease expired; its hooks may run again`;
        } catch (error) {
          return `could not ${stoppedBecause === undefined ? 'clear' : 'release'} ${label}: ${messageOf(error)} — its durable hooks will run again when the journal is resumed`;
        }
      },
      async release(error, retryAfterMs) {
        release(id);
        await watch(journal.doRelease(id, owner, error, retryAfterMs)).catch(() => undefined);
      },
      attach(pid) {
        // Best effort: a journal that cannot record it now still holds the entry under its lease.
        if (journal.doAttachProcess !== undefined) watch(journal.doAttachProcess(id, owner, pid)).catch(() => undefined);
      },
    };
  };

  const recordOnly = settings.recordOnly === true;
  return {
    recordOnly,
    async record(record) {
      try {
        if (recordOnly) {
          await watch(journal.doRecord(record, owner, 0));
          return {};
        }
        const id = await watch(journal.doRecord(record, owner, leaseMs));
        return { held: hold(id) };
      } catch (error) {
        return {
          warning: `could not journal the durable hooks ${record.hooks.map((name) => `"${name}"`).join(', ')}: ${messageOf(error)} — they run now, but a crash before they end would lose them`,
        };
      }
    },
    async claim() {
      const entry = await watch(journal.doClaim(owner, leaseMs));
      return entry === undefined ? undefined : hold(entry.id, entry);
    },
    idle: inFlight.idle,
    stop() {
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

