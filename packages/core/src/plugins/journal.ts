/** What the engine journals for one emit with durable hooks. */
export interface JournalRecord {
  /** The preset the event belongs to. */
  readonly preset: string;
  readonly event: string;
  /** The normalised context (with `event`), as the hooks got it; a JSON object. */
  readonly context: Readonly<Record<string, unknown>>;
  /** Names of the durable hooks that were to run, for people reading the journal. */
  readonly hooks: readonly string[];
  /**
   * The engine's seal over the record (see `createJournalSeal`): kept verbatim and handed back
   * with the entry. An entry whose seal does not verify with the claimant's key is never run.
   * Absent when the engine was made with `journalKey: false`.
   */
  readonly seal?: string;
}

/** One pending entry: a journaled emit whose durable hooks have not all run yet. */
export interface JournalEntry extends JournalRecord {
  /** Unique within the journal; entries are claimed oldest first. */
  readonly id: string;
  /** When it was recorded (milliseconds since the epoch). */
  readonly createdAt: number;
  /** How many times it was taken to run: 1 when the recording process runs it, +1 per claim. */
  readonly attempts: number;
  /** Why the last attempt did not clear it (the process was stopped, …). */
  readonly lastError?: string;
  /** The engine that holds it now, while its lease runs. */
  readonly owner?: string;
  /** When the current lease ends (milliseconds since the epoch). */
  readonly leaseExpiresAt?: number;
  /**
   * The process groups the entry's hooks started (journals that implement `doAttachProcess`): where
   * they ran and how to tell each group's leader from a later process with its pid.
   */
  readonly processGroups?: readonly JournalProcessGroup[];
  /**
   * When the entry was dead-lettered (journals with a `maxAttempts` setting): it was taken to run
   * that many times without being cleared, so it is no longer claimed; `doRetry` gives it back.
   */
  readonly deadLetteredAt?: number;
  /**
   * The attempts at its durable hooks that a runner with a retry policy answered (journals with
   * `doRecordAttempts`), oldest first: kept while the entry is retried and when it is dead-lettered.
   */
  readonly deliveries?: readonly JournalAttempt[];
}

/**
 * One attempt at one durable hook of an entry. Not sealed: a forged attempt can only make a hook
 * count as done (which deleting the entry does too) or be retried (at least once allows it).
 */
export interface JournalAttempt {
  /** The hook's effective name. */
  readonly hook: string;
  /** The hook's target as its type names it (an HTTP hook's URL), when the type has one. */
  readonly target?: string;
  /** When the attempt ended (ms since the epoch). */
  readonly at: number;
  /** `done`: delivered, or ran (a hook without a retry policy); `retry`: to be tried again; `dead`: given up on. */
  readonly outcome: 'done' | 'retry' | 'dead';
  /** The hook's report status (`ok`, `failed`, `timed_out`). */
  readonly status: string;
  /** The HTTP status, when there was an answer. */
  readonly httpStatus?: number;
  readonly durationMs: number;
  /** The error, or why it is retried or given up (it quotes the start of a response body). */
  readonly error?: string;
}

/** What becomes of an entry after its attempts (see {@link Journal.doRecordAttempts}). */
export type JournalNext =
  /** Pending again, claimable `retryAfterMs` from now, its claim count back to 0 (its hooks ended cleanly). */
  | { readonly retryAfterMs: number; readonly error: string; readonly deadLetter?: undefined }
  /** Dead-lettered with this reason. */
  | { readonly deadLetter: string; readonly retryAfterMs?: undefined };

/** A hook target that gets no delivery until re-enabled (an HTTP endpoint that answered 410 Gone). */
export interface DisabledTarget {
  readonly target: string;
  /** ms since the epoch. */
  readonly disabledAt: number;
  readonly reason: string;
}

/** A process group that a durable hook started, as the journal recorded it. */
export interface JournalProcessGroup {
  /** The host it runs on, as the journal names hosts (processes elsewhere cannot be ended from here). */
  readonly host: string;
  /** The group's id: the pid of its leader, the hook's main process. */
  readonly pid: number;
  /** The leader's start time as the system records it; empty when unknown (such a group is never signalled). */
  readonly start: string;
  /** The engine's seal over the group and its entry's seal; a group whose seal does not verify is never signalled. */
  readonly seal?: string;
}

/**
 * Seals a process group the journal is about to record (host, pid and start time as the journal
 * read them); the engine hands it to {@link Journal.doAttachProcess}. Resolves to the seal to keep
 * with the group, or undefined when the engine does not seal.
 */
export type ProcessGroupSealer = (group: Omit<JournalProcessGroup, 'seal'>) => Promise<string | undefined>;

/** The version of the `Journal` interface this core speaks; changing `Journal` or its records bumps it. */
export const JOURNAL_INTERFACE_VERSION = 'v2';

/**
 * Where durable hooks are journaled so that a crash does not lose them (at-least-once): the engine
 * records an emit before `emit` returns, holds it under a lease that it renews while the hooks run,
 * and completes it once they ran; `engine.resume()` claims what is left. Two engines — in one process
 * or in two — never hold one entry at the same time.
 *
 * Implementations are factories returning plain objects (`sqliteJournal({ path })`) and do no I/O
 * until first used. Every method may reject with a `JournalError` naming the journal's file.
 */
export interface Journal {
  readonly journalInterfaceVersion: typeof JOURNAL_INTERFACE_VERSION;
  /** The package or kind of journal, named in errors. */
  readonly name: string;
  /**
   * Names the store the entries live in — the same for every process that shares it (the resolved
   * file of an SQLite journal, the database, schema and tables of a PostgreSQL one), another for
   * another store. The engine binds each entry's seal to it, so an entry copied from one journal
   * into another does not verify.
   */
  readonly scope: string;
  /**
   * Records an entry already leased to `owner` for `leaseMs`, with `attempts` 1; resolves to its id.
   * With `leaseMs` 0 the lease has ended at once: the entry is recorded for others to claim.
   */
  doRecord(record: JournalRecord, owner: string, leaseMs: number): Promise<string>;
  /**
   * Takes the oldest entry that nobody holds — never leased, released, its lease expired, or (where
   * the journal can tell) its holder's process is gone — and whose retry time has come; leases it to
   * `owner` for `leaseMs` and counts an attempt. Atomic: one entry goes to one claimant. A journal
   * with a limit on attempts dead-letters, instead of claiming, an entry that has used them all.
   */
  doClaim(owner: string, leaseMs: number): Promise<JournalEntry | undefined>;
  /** Extends `owner`'s lease to now + `leaseMs`; false when `owner` no longer holds the entry. */
  doRenew(id: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Removes the entry: its hooks ran. False (and nothing changes) when `owner` no longer holds it. */
  doComplete(id: string, owner: string): Promise<boolean>;
  /**
   * Gives the entry up without clearing it, keeping `error` as its last error; it can be claimed again
   * `retryAfterMs` from now (default at once). False when `owner` no longer holds it.
   */
  doRelease(id: string, owner: string, error: string, retryAfterMs?: number): Promise<boolean>;
  /**
   * Gives up an entry the engine refuses to run (its seal does not verify): dead-letters it at once
   * with `reason` as its last error and forgets its process groups without signalling any. False
   * when `owner` holds no such entry.
   */
  doDeadLetter(id: string, owner: string, reason: string): Promise<boolean>;
  /**
   * Optional (with {@link Journal.doEndProcessGroups}). Records in the entry that `owner`'s hooks
   * for it started the process group led by `pid` on this host: the host, the pid and the leader's
   * start time, which the journal reads, sealed by `seal`. A group whose start time cannot be read
   * is not recorded (it could never be told from a later process with its pid). False when `owner`
   * no longer holds the entry.
   */
  doAttachProcess?(id: string, owner: string, pid: number, seal: ProcessGroupSealer): Promise<boolean>;
  /**
   * Optional (with {@link Journal.doAttachProcess}). Ends the given process groups of an entry the
   * engine claimed — the ones whose seals it verified — and forgets every group the entry recorded,
   * so a hook left running by a killed process never overlaps its second run. A group is signalled
   * only when it runs on this host and its leader is the very process recorded: the same pid, a
   * recorded start time equal to the live one, never pid 1, this process or its group. Resolves to
   * a warning for each group it would not signal. `owner` must hold the entry, or it must be
   * dead-lettered.
   */
  doEndProcessGroups?(id: string, owner: string, groups: readonly JournalProcessGroup[]): Promise<readonly string[]>;
  /**
   * Optional. Makes a dead-lettered entry pending again with its attempts counted from 0, claimable
   * at once; false when no dead-lettered entry has that id. With `options.seal` (`hookline journal
   * retry ID --trust`) the entry's seal is replaced — a person vouched for its context — and its
   * recorded process groups are forgotten unsignalled.
   */
  doRetry?(id: string, options?: JournalRetryOptions): Promise<boolean>;
  /**
   * Optional (retry policies need it). Appends `attempts` to the entry's {@link JournalEntry.deliveries}
   * and, in the same write, releases it for a retry or dead-letters it (see {@link JournalNext}).
   * False when `owner` no longer holds the entry.
   */
  doRecordAttempts?(
    id: string,
    owner: string,
    attempts: readonly JournalAttempt[],
    next: JournalNext,
  ): Promise<boolean>;
  /** Optional. Deletes the dead-lettered entries dead-lettered before `before` (ms since the epoch); resolves to how many. */
  doPurge?(before: number): Promise<number>;
  /** Optional (with the two below). Stops deliveries to `target` until {@link Journal.doEnableTarget}; shared by every process of the journal. */
  doDisableTarget?(target: string, reason: string): Promise<void>;
  /** Optional. Re-enables `target`; false when it was not disabled. */
  doEnableTarget?(target: string): Promise<boolean>;
  /** Optional. The disabled targets. */
  disabledTargets?(): Promise<readonly DisabledTarget[]>;
  /**
   * Every entry not cleared yet, oldest first: held or not, dead-lettered ones included (marked).
   * `query` narrows it to entries in one state (see {@link journalEntryState}) and to the oldest `limit`.
   */
  list(query?: JournalListQuery): Promise<readonly JournalEntry[]>;
  /**
   * Optional. How many entries are in each state, the oldest age and the most attempts, counted by
   * the journal itself (without reading every entry).
   */
  stats?(): Promise<JournalStats>;
  /**
   * Optional, for idle workers: resolves `true` when an entry may have become claimable — one was
   * recorded with no lease, released or retried, by any process — since the previous call returned (at once on
   * the first call, which cannot know what it missed); `false` after `maxWaitMs` or when `signal`
   * aborts. Without it a worker polls.
   */
  doWaitForWork?(maxWaitMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Closes files and handles; the engine calls it when it closes. */
  doClose?(): Promise<void>;
}

/** How {@link Journal.doRetry} retries a dead letter. */
export interface JournalRetryOptions {
  /** A new seal for the entry, made by the engine's key for its stored record. */
  readonly seal?: string;
}

/**
 * Where an entry stands: `dead-lettered` (it used its attempts), `leased` (held, its lease not ended),
 * or `pending` (waiting to be claimed: never leased, released — also before its retry time — or its
 * lease ended).
 */
export type JournalEntryState = 'pending' | 'leased' | 'dead-lettered';

/** Which entries {@link Journal.list} returns. */
export interface JournalListQuery {
  /** Only entries in this state. */
  readonly state?: JournalEntryState;
  /** At most this many, the oldest first. */
  readonly limit?: number;
}

/** Counts of a journal's entries by {@link JournalEntryState}, as {@link Journal.stats} reports them. */
export interface JournalStats {
  readonly pending: number;
  readonly leased: number;
  readonly deadLettered: number;
  /** When the oldest entry that is not dead-lettered was recorded (ms since the epoch); none when there is none. */
  readonly oldestCreatedAt?: number;
  /** The most attempts an entry that is not dead-lettered has taken; 0 when there is none. */
  readonly highestAttempts: number;
  /** The journal's clock when it counted (ms since the epoch): ages are measured against it, not the reader's. */
  readonly now: number;
}

/** The state of `entry` at `now` (ms since the epoch), as `list` and `stats` count it. */
export function journalEntryState(entry: JournalEntry, now: number): JournalEntryState {
  if (entry.deadLetteredAt !== undefined) return 'dead-lettered';
  return entry.owner !== undefined && (entry.leaseExpiresAt ?? 0) > now ? 'leased' : 'pending';
}

/** Identity helper that types a journal object and stamps the interface version. */
export function defineJournal(journal: Omit<Journal, 'journalInterfaceVersion'>): Journal {
  return { journalInterfaceVersion: JOURNAL_INTERFACE_VERSION, ...journal };
}
