import { checkContext } from '../context/normalize-context.ts';
import type { Journal, JournalEntry } from '../plugins/journal.ts';
import { createInFlight, type InFlight } from '../plugins/create-in-flight.ts';
import { claimLoop } from './claim-loop.ts';
import type { ClaimedEntry, Durability, HeldEntry } from './durable-entries.ts';
import type { EmitOutcome } from './emit-outcome.ts';
import type { EngineState, EventRoute } from './engine-state.ts';
import { ENGINE_CLOSED_MEANWHILE, runEmit } from './run-emit.ts';
import { messageOf } from '../errors/message-of.ts';

/**
 * What `engine.resume()` did with the journal's pending entries. A resume with a `signal` runs for as
 * long as its host wants (`hookline worker`): it tells each entry to `onSettled` and `onRefused` only,
 * and resolves to an empty report — one that kept every entry and outcome would grow with every
 * message the worker ever handled.
 */
export interface ResumeReport {
  /**
   * Entries whose durable hooks ran, each with the settled outcome of that run (its `warnings` say
   * which hooks failed). They were cleared unless a warning says otherwise.
   */
  readonly ran: ReadonlyArray<{ readonly entry: JournalEntry; readonly outcome: EmitOutcome }>;
  /** Entries left pending, and why: the engine closed while they ran, or they are not this engine's to run. */
  readonly pending: ReadonlyArray<{ readonly entry: JournalEntry; readonly error: string }>;
  /**
   * Entries refused because their seal does not verify with the engine's journal key (forged,
   * edited, copied, or written before entries were sealed): dead-lettered unrun, their process
   * groups never signalled. `reason` says why and how to accept one (`hookline journal retry ID --trust`).
   */
  readonly refused: ReadonlyArray<{ readonly entry: JournalEntry; readonly reason: string }>;
}

// An entry of an event this engine cannot run waits this long before it is offered again, so that a
// resume gets on with the rest (another engine sharing the journal may know the event).
const FOREIGN_ENTRY_RETRY_MS = 60_000;

/** How `engine.resume()` claims and runs entries. */
export interface ResumeOptions {
  /**
   * Without it, resume drains what is claimable now and resolves. With it, resume keeps claiming —
   * woken by the journal when an entry is recorded for workers (`doWaitForWork`), else every
   * `pollMs` — and rides out journal failures, until it aborts; then it stops claiming and resolves
   * once the entries it holds have run, to an empty report (see {@link ResumeReport}): the
   * callbacks below hear of every entry. `close()` stops those and releases their entries.
   */
  readonly signal?: AbortSignal;
  /** How many entries run at once; default the engine's `concurrency`. */
  readonly concurrency?: number;
  /** With `signal`: the longest an idle resume waits before it claims again (default 1 000 ms). */
  readonly pollMs?: number;
  /** Told each entry as it is claimed, before its hooks run. */
  readonly onClaim?: (entry: JournalEntry) => void;
  /** Told each entry once its hooks ran (`outcome`), or once it was left pending (`error`). */
  readonly onSettled?: (settled: {
    readonly entry: JournalEntry;
    readonly outcome?: EmitOutcome;
    readonly error?: string;
  }) => void;
  /** Told each entry refused because its seal does not verify (see {@link ResumeReport.refused}). */
  readonly onRefused?: (refused: { readonly entry: JournalEntry; readonly reason: string }) => void;
  /** With `signal`: told each time the journal fails to hand out an entry (resume tries again after `pollMs`). */
  readonly onJournalError?: (error: unknown) => void;
}

/**
 * Claims the journal's pending entries with `options.concurrency` loops at once (see
 * {@link claimLoop}) and runs each through the emit pipeline as a resumed emit: the event's durable
 * hooks that the current config selects for the stored context (a config edited since runs as
 * edited), then the entry is cleared, or released when the engine closed meanwhile. Draining
 * rejects when the journal cannot be read.
 */
export async function resumeJournal(
  engine: EngineState,
  durability: Durability,
  journal: Journal,
  options: ResumeOptions & { readonly concurrency: number },
): Promise<ResumeReport> {
  const resuming: Resuming = {
    engine,
    options,
    report: { ran: [], pending: [], refused: [] },
    keepsReport: options.signal === undefined,
    clearing: createInFlight(),
    failure: undefined,
  };
  // The engine closing stops the claims as the caller's signal does.
  const signal = options.signal === undefined ? undefined : AbortSignal.any([options.signal, engine.hostHooks.signal]);
  await claimLoop<ClaimedEntry>({
    concurrency: options.concurrency,
    claim: async () => (engine.hostHooks.signal.aborted ? undefined : durability.claim()),
    run: (claimed) => runClaimed(resuming, claimed),
    pollMs: options.pollMs ?? 1_000,
    ...(signal === undefined ? {} : { signal }),
    ...(journal.doWaitForWork === undefined
      ? {}
      : { waitForWork: (maxWaitMs: number, abort: AbortSignal) => journal.doWaitForWork!(maxWaitMs, abort) }),
    ...(options.onJournalError === undefined ? {} : { onClaimError: options.onJournalError }),
  });
  await resuming.clearing.settled();
  if (resuming.failure !== undefined) throw resuming.failure.error;
  return resuming.report;
}

/** What the claim loops of one `resumeJournal` share: a plain object handed to the functions below. */
interface Resuming {
  readonly engine: EngineState;
  readonly options: ResumeOptions;
  /** Filled in as entries settle, when `keepsReport`; what `resumeJournal` resolves to. */
  readonly report: {
    readonly ran: Array<ResumeReport['ran'][number]>;
    readonly pending: Array<ResumeReport['pending'][number]>;
    readonly refused: Array<ResumeReport['refused'][number]>;
  };
  /** A drain keeps what it did for its report; a resume that runs until its signal aborts does not. */
  readonly keepsReport: boolean;
  /** Entries whose hooks ended and whose clearing is still under way. */
  readonly clearing: InFlight;
  /** The first failure of an entry's run, thrown once resume ends. */
  failure: { readonly error: unknown } | undefined;
}

/** One claimed entry: refused, given back (not this engine's to run), or run. */
async function runClaimed(resuming: Resuming, claimed: ClaimedEntry): Promise<void> {
  const { engine, options } = resuming;
  if (claimed.refused !== undefined) {
    if (resuming.keepsReport) resuming.report.refused.push({ entry: claimed.refused, reason: claimed.reason });
    options.onRefused?.({ entry: claimed.refused, reason: claimed.reason });
    return;
  }
  const { held } = claimed;
  const entry = held.entry!;
  options.onClaim?.(entry);
  const route = entry.preset === engine.preset.name ? engine.routes.get(entry.event) : undefined;
  const refusal = route === undefined ? foreignEvent(engine, entry) : invalidContext(engine, entry);
  if (refusal !== undefined) {
    await held.release(refusal, FOREIGN_ENTRY_RETRY_MS);
    return leave(resuming, entry, refusal);
  }
  return runResumed(resuming, held, route!);
}

function foreignEvent(engine: EngineState, entry: JournalEntry): string {
  return `event "${entry.event}" of preset "${entry.preset}" is not in this engine's catalog (preset "${engine.preset.name}")`;
}

/** Why the entry's stored context does not fit the preset now, if it does not. */
function invalidContext(engine: EngineState, entry: JournalEntry): string | undefined {
  try {
    checkContext(entry.event, entry.context, engine.preset);
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

/** Runs a held entry as a resumed emit; resolves once its hooks ended, not once it is cleared. */
async function runResumed(resuming: Resuming, held: HeldEntry, route: EventRoute): Promise<void> {
  const { engine, options } = resuming;
  const entry = held.entry!;
  // The entry's hooks have ended once the emit finishes the entry; from then on the loop may
  // claim the next one while this one is cleared, so a claimer waits one round trip per entry
  // instead of two. Hooks running at once stay within `concurrency`.
  let hooksEnded!: () => void;
  const slotFree = new Promise<void>((resolve) => (hooksEnded = resolve));
  const finishing: HeldEntry = {
    ...held,
    finish(stoppedBecause) {
      hooksEnded();
      return held.finish(stoppedBecause);
    },
    settle(attempts, next) {
      hooksEnded();
      return held.settle(attempts, next);
    },
  };
  const settling = resuming.clearing.track(
    runEmit(engine, route, entry.context, { resumed: finishing })
      .then((emitted) => emitted.settled)
      .then((outcome) => {
        if (engine.hostHooks.signal.aborted) return leave(resuming, entry, ENGINE_CLOSED_MEANWHILE);
        if (resuming.keepsReport) resuming.report.ran.push({ entry, outcome });
        options.onSettled?.({ entry, outcome });
      }),
  );
  // A failure after the slot was freed surfaces when resume ends, as one before it does now.
  settling.catch((error: unknown) => (resuming.failure ??= { error }));
  await Promise.race([slotFree, settling]);
}

/** Leaves an entry pending, and says why. */
function leave(resuming: Resuming, entry: JournalEntry, error: string): void {
  if (resuming.keepsReport) resuming.report.pending.push({ entry, error });
  resuming.options.onSettled?.({ entry, error });
}
