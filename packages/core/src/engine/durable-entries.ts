import { createInFlight, type InFlight } from '../plugins/create-in-flight.ts';
import type {
  DisabledTarget,
  Journal,
  JournalAttempt,
  JournalEntry,
  JournalNext,
  JournalProcessGroup,
  JournalRecord,
  ProcessGroupSealer,
} from '../plugins/journal.ts';
import type { JournalSeal, SealVerdict } from '../plugins/journal-seal.ts';
import { JournalError } from '../errors/journal-error.ts';
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
  /**
   * Records a process group one of its hooks started (where the journal can). Never rejects: false
   * when the journal says the entry is no longer held, true otherwise.
   */
  attach(pid: number): Promise<boolean>;
  /** What claiming it left to say: process groups of an earlier holder that were not signalled, and why. */
  readonly warnings: readonly string[];
  /** The same for every attempt at `hook` of this entry, by any engine of the journal (see `DeliveryCall.messageKey`). */
  messageKey(hook: string): string;
  /**
   * Records the attempts a retry policy answered and retries or dead-letters the entry instead of
   * clearing it; resolves to a warning when the journal could not (one without `doRecordAttempts`
   * clears it, as `finish()` does).
   */
  settle(attempts: readonly JournalAttempt[], next: JournalNext): Promise<string | undefined>;
}

/** What {@link Durability.record} did: held the entry, or could not journal it (`warning` or `busy`, never both). */
export type RecordResult =
  | { readonly held?: HeldEntry; readonly warning?: undefined; readonly busy?: undefined }
  | { readonly warning: string; readonly held?: undefined; readonly busy?: undefined }
  | { readonly busy: string; readonly held?: undefined; readonly warning?: undefined };

/** What a claim took: an entry to run, or one refused because its seal does not verify (dead-lettered). */
export type ClaimedEntry =
  | { readonly held: HeldEntry; readonly refused?: undefined }
  | { readonly refused: JournalEntry; readonly reason: string; readonly held?: undefined };

/** The engine's side of a journal: recording, claiming, and the leases of the entries it holds. */
export interface Durability {
  /**
   * Journals an emit's durable hooks; never rejects. An engine that only records (`recordOnly`)
   * leaves the entry to others: it is not held. A journal that cannot be used (not opened, corrupted,
   * no key) gives a `warning`: the hooks run unjournaled. A journal that stayed locked past its busy
   * timeout gives `busy` instead: the hooks must not run unjournaled (a failed delivery would never be
   * retried), so the emit reports them failed with this error.
   */
  record(record: JournalRecord): Promise<RecordResult>;
  /** The engine records durable hooks for other engines to run (`durableHooks: 'record'`). */
  readonly recordOnly: boolean;
  /**
   * Claims the next pending entry, checks its seal and ends the process groups an earlier holder
   * left (those whose seals verify, on the journal's strict identity check); rejects when the
   * journal fails (a corrupted file) or the key cannot be read.
   */
  claim(): Promise<ClaimedEntry | undefined>;
  /** Whether deliveries to `target` are disabled (journals that keep disabled targets); read at most every few seconds. */
  disabledTarget(target: string): Promise<DisabledTarget | undefined>;
  /** Disables deliveries to `target` for every engine of the journal; never throws (resolves to a warning). */
  disable(target: string, reason: string): Promise<string | undefined>;
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
  /** Seals what is recorded and checks what is claimed; absent when the host trusts the journal as it is (`journalKey: false`). */
  readonly seal: JournalSeal | undefined;
}

/**
 * Keeps the leases of the entries an engine holds alive with one timer (not one per entry: a burst
 * of a thousand emits queues a thousand entries behind the concurrency limit), and turns journal
 * failures into warnings wherever a host call is waiting.
 */
export function createDurability(settings: DurabilitySettings): Durability {
  const state: Leases = {
    journal: settings.journal,
    owner: settings.owner,
    leaseMs: settings.leaseMs,
    seal: settings.seal,
    held: new Map(),
    inFlight: createInFlight(),
    timer: undefined,
    stopped: false,
    disabled: undefined,
  };
  const recordOnly = settings.recordOnly === true;
  return {
    recordOnly,
    record: (plain) => recordEntry(state, recordOnly, plain),
    claim: () => claimEntry(state),
    disabledTarget: (target) => disabledTarget(state, target),
    disable: (target, reason) => disableTarget(state, target, reason),
    idle: () => state.inFlight.idle(),
    stop() {
      state.stopped = true;
      if (state.timer !== undefined) clearInterval(state.timer);
      state.timer = undefined;
    },
  };
}

/**
 * What the functions of one {@link createDurability} share: a plain object passed to module-level
 * functions rather than one closure holding them all, so each step reads on its own.
 */
interface Leases {
  readonly journal: Journal;
  readonly owner: string;
  readonly leaseMs: number;
  readonly seal: JournalSeal | undefined;
  /** The entries held, each marked `lost` once a renewal found another engine holding it. */
  readonly held: Map<string, Lease>;
  /** Every journal operation in flight, so that `idle()` can wait for them. */
  readonly inFlight: InFlight;
  /** Renews every held lease; set while any entry is held and the engine has not stopped. */
  timer: ReturnType<typeof setInterval> | undefined;
  stopped: boolean;
  /** The disabled targets as last read: every delivery checks them, so they are read at most every few seconds. */
  disabled: { readonly readAt: number; readonly reading: Promise<Map<string, DisabledTarget>> } | undefined;
}

interface Lease {
  lost: boolean;
}

function watch<T>(state: Leases, work: Promise<T>): Promise<T> {
  return state.inFlight.track(work);
}

function renewAll(state: Leases): void {
  const { journal, owner, leaseMs } = state;
  for (const [id, lease] of state.held) {
    watch(state, journal.doRenew(id, owner, leaseMs)).then(
      (kept) => {
        if (!kept) lease.lost = true;
      },
      // A journal that fails now may work at the next tick; the lease has two more ticks to live.
      () => undefined,
    );
  }
}

/** Stops renewing the lease of `id`; the timer stops with the last one. */
function releaseLease(state: Leases, id: string): void {
  state.held.delete(id);
  if (state.held.size === 0 && state.timer !== undefined) {
    clearInterval(state.timer);
    state.timer = undefined;
  }
}

/** Journals an emit's durable hooks and holds the entry, unless the engine only records. */
async function recordEntry(state: Leases, recordOnly: boolean, plain: JournalRecord): Promise<RecordResult> {
  const { journal, owner, leaseMs, seal } = state;
  try {
    const record =
      seal === undefined ? plain : { ...plain, seal: await watch(state, seal.sealEntry(journal.scope, plain)) };
    if (recordOnly) {
      await watch(state, journal.doRecord(record, owner, 0));
      return {};
    }
    const id = await watch(state, journal.doRecord(record, owner, leaseMs));
    return { held: holdEntry(state, id, record.seal) };
  } catch (error) {
    const hooks = plain.hooks.map((name) => `"${name}"`).join(', ');
    // Busy is not unusable: the lock is free again soon, and running the hooks once without an
    // entry would turn a retried delivery into a fire-once one.
    if (JournalError.isInstance(error) && error.busy)
      return {
        busy: `could not journal the durable hooks ${hooks}: ${messageOf(error)} — they did not run, since unjournaled a failed delivery would never be retried; emit again once the journal is free`,
      };
    return {
      warning: `could not journal the durable hooks ${hooks}: ${messageOf(error)} — they run now, but a crash before they end would lose them`,
    };
  }
}

/** Claims entries until one runs, one is refused, or none is left; see `Durability.claim`. */
async function claimEntry(state: Leases): Promise<ClaimedEntry | undefined> {
  const { journal, owner, leaseMs, seal } = state;
  for (;;) {
    const entry = await watch(state, journal.doClaim(owner, leaseMs));
    if (entry === undefined) return undefined;
    const groups = entry.processGroups ?? [];
    const verdict = seal === undefined ? 'valid' : await watch(state, seal.verifyEntry(journal.scope, entry));
    if (verdict !== 'valid') {
      const reason = refusal(verdict, entry, groups.length);
      // Its process groups are forgotten unsignalled: a forged entry must not make us kill anything.
      if (entry.deadLetteredAt === undefined) await watch(state, journal.doDeadLetter(entry.id, owner, reason));
      else if (groups.length > 0)
        await watch(state, journal.doEndProcessGroups?.(entry.id, owner, []) ?? Promise.resolve([]));
      return { refused: entry, reason };
    }
    const warnings = groups.length === 0 ? [] : await endLeftovers(state, entry, groups);
    // Dead-lettered on the way, returned only so that its groups end: the next one, please.
    if (entry.deadLetteredAt !== undefined) continue;
    return { held: holdEntry(state, entry.id, entry.seal, entry, warnings) };
  }
}

/** Holds the lease of entry `id` (renewed with the others) until it is finished, settled or released. */
function holdEntry(
  state: Leases,
  id: string,
  entrySeal: string | undefined,
  entry?: JournalEntry,
  warnings: readonly string[] = [],
): HeldEntry {
  const { journal, owner, seal } = state;
  const lease: Lease = { lost: false };
  state.held.set(id, lease);
  if (state.timer === undefined && !state.stopped)
    state.timer = setInterval(() => renewAll(state), Math.max(1, Math.floor(state.leaseMs / 3)));
  const sealGroup: ProcessGroupSealer = async (group) =>
    seal === undefined || entrySeal === undefined ? undefined : seal.sealGroup(entrySeal, group);
  const finish = (stoppedBecause?: string): Promise<string | undefined> =>
    finishEntry(state, id, lease, stoppedBecause);
  return {
    id,
    warnings,
    ...(entry === undefined ? {} : { entry }),
    finish,
    async release(error, retryAfterMs) {
      releaseLease(state, id);
      await watch(state, journal.doRelease(id, owner, error, retryAfterMs)).catch(() => undefined);
    },
    messageKey: (hook) => `${journal.scope}\u0000${id}\u0000${hook}`,
    settle: (attempts, next) => settleEntry(state, id, lease, finish, attempts, next),
    attach(pid) {
      // Best effort: a journal that cannot record it now still holds the entry under its lease, and
      // the hook runs. `false` only when the journal says the entry is no longer this engine's.
      if (journal.doAttachProcess === undefined) return Promise.resolve(true);
      return watch(state, journal.doAttachProcess(id, owner, pid, sealGroup)).catch(() => true);
    },
  };
}

/** `HeldEntry.finish`: clears the entry, or releases it when `stoppedBecause` is given. */
async function finishEntry(
  state: Leases,
  id: string,
  lease: Lease,
  stoppedBecause: string | undefined,
): Promise<string | undefined> {
  const { journal, owner } = state;
  const label = `journal entry ${id}`;
  releaseLease(state, id);
  if (lease.lost)
    return `${label} was taken over by another engine after its lease expired while its hooks ran; they may have run twice`;
  try {
    if (stoppedBecause !== undefined) {
      await watch(state, journal.doRelease(id, owner, stoppedBecause, 0));
      return undefined;
    }
    const cleared = await watch(state, journal.doComplete(id, owner));
    return cleared
      ? undefined
      : `${label} was taken over by another engine after its lease expired; its hooks may run again`;
  } catch (error) {
    return `could not ${stoppedBecause === undefined ? 'clear' : 'release'} ${label}: ${messageOf(error)} — its durable hooks will run again when the journal is resumed`;
  }
}

/** `HeldEntry.settle`: records the attempts and retries or dead-letters the entry; clears it where the journal cannot. */
async function settleEntry(
  state: Leases,
  id: string,
  lease: Lease,
  finish: () => Promise<string | undefined>,
  attempts: readonly JournalAttempt[],
  next: JournalNext,
): Promise<string | undefined> {
  const { journal, owner } = state;
  const label = `journal entry ${id}`;
  if (journal.doRecordAttempts === undefined) {
    const cleared = await finish();
    return (
      cleared ??
      `${journal.name} cannot keep delivery attempts, so ${label} was cleared instead of ${next.deadLetter === undefined ? 'retried' : 'dead-lettered'}: ${next.deadLetter ?? next.error}`
    );
  }
  releaseLease(state, id);
  if (lease.lost)
    return `${label} was taken over by another engine after its lease expired while its hooks ran; they may have run twice`;
  try {
    const kept = await watch(state, journal.doRecordAttempts(id, owner, attempts, next));
    return kept
      ? undefined
      : `${label} was taken over by another engine after its lease expired; its hooks may run again`;
  } catch (error) {
    return `could not record the delivery attempts of ${label}: ${messageOf(error)} — its durable hooks will run again when the journal is resumed`;
  }
}

// The groups an earlier holder's hooks left: those whose seals verify go to the journal to end,
// which signals only a group whose leader is the very process recorded.
async function endLeftovers(
  state: Leases,
  entry: JournalEntry,
  groups: readonly JournalProcessGroup[],
): Promise<string[]> {
  const { journal, owner, seal } = state;
  const warnings: string[] = [];
  const vouched: JournalProcessGroup[] = [];
  for (const group of groups) {
    if (seal === undefined || (await watch(state, seal.verifyGroup(entry.seal ?? '', group)))) vouched.push(group);
    else
      warnings.push(
        `journal entry ${entry.id} names process group ${String(group.pid)} with a seal that does not verify (forged or edited); it was not signalled`,
      );
  }
  if (journal.doEndProcessGroups === undefined)
    return [
      ...warnings,
      `journal entry ${entry.id} names process groups, but ${journal.name} cannot end them; hooks left running by a killed process may overlap this run`,
    ];
  try {
    return [...warnings, ...(await watch(state, journal.doEndProcessGroups(entry.id, owner, vouched)))];
  } catch (error) {
    return [
      ...warnings,
      `could not end the process groups an earlier run of journal entry ${entry.id} left: ${messageOf(error)}; they may overlap this run`,
    ];
  }
}

/** `Durability.disabledTarget`, from the list as last read. */
async function disabledTarget(state: Leases, target: string): Promise<DisabledTarget | undefined> {
  const { journal } = state;
  if (journal.disabledTargets === undefined) return undefined;
  const now = Date.now();
  if (state.disabled === undefined || now - state.disabled.readAt > DISABLED_TARGETS_TTL_MS) {
    const reading = watch(state, journal.disabledTargets()).then(
      (list) => new Map(list.map((item) => [item.target, item])),
      // A journal that cannot tell now is asked again at the next delivery; nothing is disabled meanwhile.
      () => new Map<string, DisabledTarget>(),
    );
    state.disabled = { readAt: now, reading };
  }
  return (await state.disabled.reading).get(target);
}

/** `Durability.disable`: the next `disabledTarget` reads the list afresh. */
async function disableTarget(state: Leases, target: string, reason: string): Promise<string | undefined> {
  const { journal } = state;
  if (journal.doDisableTarget === undefined)
    return `${journal.name} cannot keep disabled endpoints, so ${target} stays enabled: ${reason}`;
  try {
    await watch(state, journal.doDisableTarget(target, reason));
    state.disabled = undefined;
    return undefined;
  } catch (error) {
    return `could not disable ${target}: ${messageOf(error)}`;
  }
}

// How stale an engine's view of the disabled targets may be: a 410 seen by one worker stops the others within this.
const DISABLED_TARGETS_TTL_MS = 2_000;

// Why an entry is not run; the way out is in it, since only a person can vouch for the context.
function refusal(verdict: Exclude<SealVerdict, 'valid'>, entry: JournalEntry, groups: number): string {
  const why =
    verdict === 'missing'
      ? 'it has no seal: it was written by a Hookline before entries were sealed, by a host with journalKey: false, or by something other than Hookline'
      : "its seal does not verify with this user's journal key: it was forged or edited, written with another key (another user, a journal copied from elsewhere), or copied from another journal";
  const unsignalled =
    groups === 0 ? '' : ` Its ${groups} recorded process group${groups === 1 ? ' was' : 's were'} not signalled.`;
  return `refused: ${why}, so its context is not trusted and its hooks did not run.${unsignalled} Check its context (hookline journal ls --json); to run it anyway: hookline journal retry ${entry.id} --trust.`;
}
