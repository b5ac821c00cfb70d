import { normalizeContext } from '../context/normalize-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import { mergeDecisions } from '../decisions/merge-decisions.ts';
import { mergeExtras } from '../decisions/merge-extras.ts';
import type { EmitObservation } from '../plugins/engine-observer.ts';
import type { HeldEntry } from './durable-entries.ts';
import { matcherFieldsOf } from '../presets/preset.ts';
import { selectHooks } from '../selection/explain-selection.ts';
import { settledEarlier, settleEntry, verdictOf, type DeliveryRun } from './delivery-attempts.ts';
import type { HookReport, PendingEmitOutcome } from './emit-outcome.ts';
import { EmitRun, type EmitOrigin } from './emit-run.ts';
import { laterWarnings, reportWarnings } from './emit-warnings.ts';
import type { EngineState, EventRoute } from './engine-state.ts';
import { failedReport, pendingReport, skippedReport } from './hook-reports.ts';
import { Outcome } from './outcome.ts';
import { quietly } from './quietly.ts';

export type { EmitOrigin } from './emit-run.ts';

const NOTHING: readonly never[] = Object.freeze([]);
/** Why a durable hook did not run here, in an engine with `durableHooks: 'record'`. */
export const RECORDED_FOR_WORKERS = 'recorded in the journal for a worker to run';
/** Why a journal entry is released rather than cleared. */
export const ENGINE_CLOSED_MEANWHILE = 'the engine closed before the durable hooks ended';

/**
 * One emit, top to bottom. `context` has been checked but not normalised yet. The phases:
 *
 * 1. {@link select}: the event's hooks whose matchers take the context;
 * 2. {@link runBlocking}: the blocking hooks in config order, one at a time, stopping at the first
 *    block (all at once for a `parallel` event);
 * 3. {@link planLater}: unless blocked, the non-blocking hooks that will run after the answer;
 * 4. {@link record}: the durable ones among them are journaled (and only journaled, for other
 *    engines to run, with `durableHooks: 'record'`);
 * 5. {@link runLater}: the non-blocking hooks start, concurrently through the engine's limiter, or
 *    one after another for a `sequential` event;
 * 6. {@link merge}: the merged decision, resolved when the blocking phase and the recording are over;
 *    its `settled` resolves when the later phase is over too.
 *
 * A resumed journal entry goes the same way with its durable hooks only: nothing blocks, nothing
 * is recorded again, and the entry is finished at the end of the later phase.
 */
export function runEmit(
  engine: EngineState,
  route: EventRoute,
  context: Readonly<Record<string, unknown>>,
  origin?: EmitOrigin,
): Promise<PendingEmitOutcome> {
  const observation = engine.observer === undefined ? undefined : observeEmit(engine, route.spec.name, context, origin);
  // The fast path: an unwatched event with no hooks costs one lookup.
  if (observation === undefined && route.hooks.length === 0 && origin === undefined) return route.quiet;
  const selected = select(engine, route, context, origin);
  if (selected.length === 0 && origin?.resumed === undefined) {
    if (observation !== undefined) quietly(() => observation.ended(route.empty));
    return route.quiet;
  }
  const pending = runSelected(
    new EmitRun(engine, route.spec, selected, normalizeContext(route.spec.name, context), origin, observation),
    route.notices,
  );
  if (observation !== undefined) {
    const failed = (error: unknown): void => void quietly(() => observation.failed(error));
    pending.then((outcome) => outcome.settled.catch(failed), failed);
  }
  return pending;
}

/** Phases 2 to 6 for the hooks `select` chose. */
async function runSelected(emit: EmitRun, notices: readonly string[]): Promise<PendingEmitOutcome> {
  emit.warnings.push(...notices);
  const blocking = runBlocking(emit);
  if (blocking !== undefined) await blocking;
  const later = planLater(emit);
  const recording = record(emit, later);
  if (recording !== undefined) await recording;
  const done = later.length === 0 ? undefined : runLater(emit, later);
  return merge(emit, later, done);
}

/** Phase 1: the event's hooks whose matchers take the context; for a resumed entry, its durable non-blocking ones. */
function select(
  engine: EngineState,
  route: EventRoute,
  context: Readonly<Record<string, unknown>>,
  origin: EmitOrigin | undefined,
): readonly HookDefinition[] {
  const selected = route.unconditional
    ? route.hooks
    : selectHooks(route.hooks, route.spec.name, context, matcherFieldsOf(engine.preset, route.spec));
  return origin?.resumed === undefined ? selected : selected.filter((hook) => hook.durable && !hook.blocking);
}

/** Phase 2: the blocking hooks decide. `undefined` when every answer was known at once. */
function runBlocking(emit: EmitRun): Promise<void> | undefined {
  return emit.event.parallel === true ? runBlockingTogether(emit) : runBlockingInOrder(emit, 0);
}

// Every blocking hook starts now; their decisions merge in config order once all have ended.
async function runBlockingTogether(emit: EmitRun): Promise<void> {
  const positions = emit.selected.flatMap((hook, position) => (hook.blocking && emit.runs(position) ? [position] : []));
  // A hook that answered synchronously is a report, not a promise: Promise.all takes both.
  // eslint-disable-next-line @typescript-eslint/await-thenable
  const reports = await Promise.all(positions.map((position) => emit.run(emit.selected[position]!)));
  for (const [index, position] of positions.entries()) emit.decide(position, reports[index]!);
}

// One at a time in config order; after a block the rest are skipped. An answer known at once is
// decided without a turn of the event loop's promise queue.
function runBlockingInOrder(emit: EmitRun, from: number): Promise<void> | undefined {
  for (let position = from; position < emit.selected.length; position++) {
    const hook = emit.selected[position]!;
    if (!hook.blocking || !emit.runs(position)) continue;
    if (emit.blockedBy !== undefined) {
      emit.skipBlocked(position);
      continue;
    }
    const running = emit.run(hook);
    if (running instanceof Promise) {
      return running.then((report) => {
        emit.decide(position, report);
        return runBlockingInOrder(emit, position + 1);
      });
    }
    emit.decide(position, running);
  }
  return undefined;
}

/**
 * Phase 3: the positions of the non-blocking hooks that run (reported `pending`); all skipped when
 * blocked. A retried journal entry runs again only the hooks that are not done (see settledEarlier).
 */
function planLater(emit: EmitRun): number[] {
  const later: number[] = [];
  const resumedEntry = emit.origin?.resumed?.entry;
  for (let position = 0; position < emit.selected.length; position++) {
    const hook = emit.selected[position]!;
    if (hook.blocking || (emit.blockedBy === undefined && !emit.runs(position))) continue;
    const settledBefore = resumedEntry?.deliveries === undefined ? undefined : settledEarlier(resumedEntry, hook.name);
    if (emit.blockedBy !== undefined) emit.skipBlocked(position);
    else if (settledBefore !== undefined) emit.reports[position] = skippedReport(hook, settledBefore);
    else {
      later.push(position);
      emit.reports[position] = pendingReport(hook);
    }
  }
  return later;
}

/**
 * Phase 4: the durable hooks of `later` are journaled before emit returns, so a host that got its
 * answer can rely on them running. With `durableHooks: 'record'` they are left to the workers that
 * share the journal and taken out of `later`. `undefined` when there is nothing to record.
 */
function record(emit: EmitRun, later: number[]): Promise<void> | undefined {
  const { engine, selected } = emit;
  const durable =
    emit.held === undefined && later.length > 0
      ? later.filter((position) => selected[position]!.durable).map((position) => selected[position]!.name)
      : NOTHING;
  const durability = engine.durability;
  if (durable.length === 0 || durability === undefined) return undefined;
  return durability
    .record({ preset: engine.preset.name, event: emit.event.name, context: emit.context, hooks: durable })
    .then((recorded) => {
      if (recorded.busy !== undefined) return failUnjournaled(emit, later, recorded.busy);
      if (recorded.warning !== undefined) emit.warnings.push(recorded.warning);
      emit.held = recorded.held;
      if (!durability.recordOnly || recorded.warning !== undefined) return;
      // In place, in one pass: splicing each one out was quadratic in the hooks of the event.
      let kept = 0;
      for (const position of later) {
        if (selected[position]!.durable)
          emit.reports[position] = skippedReport(selected[position]!, RECORDED_FOR_WORKERS);
        else later[kept++] = position;
      }
      later.length = kept;
    });
}

/**
 * The journal stayed locked past its busy timeout: the durable hooks of `later` are reported failed
 * (their `on_error` decides) and taken out of it, rather than run once without an entry — a
 * delivery that then failed would never be retried and the message would be lost without a trace.
 */
function failUnjournaled(emit: EmitRun, later: number[], error: string): void {
  const { selected } = emit;
  const now = performance.now();
  const failed: HookReport[] = [];
  let kept = 0;
  for (const position of later) {
    const hook = selected[position]!;
    if (hook.durable) failed.push((emit.reports[position] = failedReport(hook, 'failed', error, now)));
    else later[kept++] = position;
  }
  later.length = kept;
  // With hooks left to run the later phase reports these failures with theirs; without, nothing
  // would: the outcome is made at once.
  if (kept === 0) for (const report of failed) emit.warnings.push(...laterWarnings(report));
}

/**
 * Phase 5: the non-blocking hooks run through the engine's limiter. A sequential event's hooks each
 * take the limiter in turn, so they run in config order, the next one starting when the previous
 * ended, whatever its status.
 */
function runLater(emit: EmitRun, positions: readonly number[]): Promise<void> {
  const step = (position: number) => (): Promise<void> =>
    emit.engine.limiter
      .run(() => emit.run(emit.selected[position]!))
      .then((report) => {
        emit.reports[position] = report;
      });
  if (emit.event.sequential === true) {
    let chain: Promise<void> | undefined;
    for (const position of positions) chain = chain === undefined ? step(position)() : chain.then(step(position));
    return chain ?? Promise.resolve();
  }
  return Promise.all(positions.map((position) => step(position)())).then(() => undefined);
}

/**
 * Phase 6: the blocking decisions and extras merged into the outcome. When hooks still run or a
 * journal entry is held, its `settled` waits for them, gathers their warnings and finishes the entry.
 */
function merge(emit: EmitRun, later: readonly number[], done: Promise<void> | undefined): PendingEmitOutcome {
  const { event, reports, warnings, observation } = emit;
  const merged = mergeDecisions(emit.effective);
  const decidedBy = merged.index === undefined ? undefined : emit.deciders[merged.index];
  const extras = mergeExtras(emit.effective, emit.deciders, warnings);
  const entry = emit.held;
  if (later.length === 0 && entry === undefined) {
    const outcome = new Outcome(event.name, merged.decision, decidedBy, extras, reports, warnings);
    if (observation !== undefined) quietly(() => observation.ended(outcome));
    return outcome;
  }
  const settled = (done ?? Promise.resolve()).then(async () => {
    const all = [...warnings, ...(await settledWarnings(emit, later))];
    const outcome = new Outcome(event.name, merged.decision, decidedBy, extras, reports, all);
    // Before `settled` resolves: a host that flushes its traces then finds the emit's span ended.
    if (observation !== undefined) quietly(() => observation.ended(outcome));
    return outcome;
  });
  // close() waits for the entry to be cleared or released, not only for the hooks.
  if (entry !== undefined) void emit.engine.work.track(settled);
  return new Outcome(event.name, merged.decision, decidedBy, extras, reports.slice(), warnings.slice(), settled);
}

// What the later phase adds to the outcome's warnings, once it is over; finishes the journal entry.
async function settledWarnings(emit: EmitRun, later: readonly number[]): Promise<string[]> {
  const resumed = emit.origin?.resumed;
  // What claiming the entry found: process groups of an earlier run that were not signalled.
  const all = resumed === undefined ? [] : [...resumed.warnings];
  for (const report of emit.reports)
    if (!report.blocking) all.push(...reportWarnings(report), ...laterWarnings(report));
  if (resumed !== undefined && emit.selected.length === 0) {
    all.push(
      `no durable hook of "${emit.event.name}" is configured for this context now; the journal entry was cleared without running anything`,
    );
  }
  if (emit.held !== undefined) all.push(...(await finishEntry(emit.held, emit, later)));
  return all;
}

/**
 * Clears a held entry once its durable hooks ended — or, when a retry policy answered, records the
 * attempts and retries or dead-letters it, disabling the targets a policy gave up on for good.
 * Resolves to the warnings to add to the outcome.
 */
async function finishEntry(entry: HeldEntry, emit: EmitRun, later: readonly number[]): Promise<readonly string[]> {
  if (emit.lane.signal.aborted) {
    const note = await entry.finish(ENGINE_CLOSED_MEANWHILE);
    return note === undefined ? NOTHING : [note];
  }
  const runs: DeliveryRun[] = [];
  for (const position of later) {
    const hook = emit.selected[position]!;
    const report = emit.reports[position]!;
    // The durable hooks that ran in this pass, and those given up on without running (a disabled target).
    if (hook.durable && (report.status !== 'skipped' || verdictOf(report) !== undefined))
      runs.push({ hook, report, target: emit.targetOf(hook) });
  }
  const settlement = settleEntry(entry.entry, runs, Date.now());
  const notes: string[] = [];
  const durability = emit.engine.durability;
  for (const run of runs) {
    const verdict = verdictOf(run.report);
    if (verdict?.next === 'dead' && verdict.disable === true && run.target !== undefined && durability !== undefined) {
      const note = await durability.disable(run.target, verdict.reason);
      if (note !== undefined) notes.push(note);
    }
  }
  const note = settlement.clear ? await entry.finish() : await entry.settle(settlement.attempts, settlement.next);
  if (note !== undefined) notes.push(note);
  return notes;
}

function observeEmit(
  engine: EngineState,
  event: string,
  context: Readonly<Record<string, unknown>>,
  origin: EmitOrigin | undefined,
): EmitObservation | undefined {
  const session = context[engine.preset.sessionField];
  const resumed = origin?.resumed !== undefined;
  return quietly(() =>
    engine.observer!.emitStarted({
      event,
      preset: engine.preset.name,
      context,
      ...(typeof session === 'string' ? { session } : {}),
      ...(resumed ? { resumed } : {}),
    }),
  );
}
