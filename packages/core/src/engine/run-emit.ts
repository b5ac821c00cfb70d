import type { EventContext } from '../context/event-context.ts';
import { normalizeContext } from '../context/normalize-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import { OUTCOME_EXTRAS, type HookDecision } from '../decisions/decision.ts';
import { mergeDecisions } from '../decisions/merge-decisions.ts';
import { mergeExtras } from '../decisions/merge-extras.ts';
import type { EmitObservation } from '../plugins/engine-observer.ts';
import type { SandboxSession } from '../plugins/sandbox-provider.ts';
import { matcherFieldsOf, type EventSpec } from '../presets/preset.ts';
import { selectHooks } from '../selection/explain-selection.ts';
import type { HeldEntry } from './durable-entries.ts';
import { deliveryCall, settledEarlier, settleEntry, verdictOf, type DeliveryRun } from './delivery-attempts.ts';
import type { DeliveryCall } from '../plugins/runner.ts';
import type { DisabledTarget } from '../plugins/journal.ts';
import type { EmitOutcome, HookReport, PendingEmitOutcome } from './emit-outcome.ts';
import type { EngineState, EventRoute, HookLane } from './engine-state.ts';
import type { InstalledType } from '../plugins/runner-registry.ts';
import { EmitPayload } from './hook-call.ts';
import { pendingReport, skippedReport } from './hook-reports.ts';
import { Outcome } from './outcome.ts';
import { runHook, type HookRunScope } from './run-hook.ts';
import type { RunFacts } from './sandbox-sessions.ts';

/** Where an emit comes from, when it is not the host's `emit` call. */
export type EmitOrigin =
  /** One of the engine's own sandbox events: its hooks run in the engine's own lane, sandboxed ones in `sandbox`. */
  | { readonly sandbox: SandboxSession; readonly resumed?: undefined }
  /** A journal entry `resume` claimed: only the durable non-blocking hooks run, then the entry is finished. */
  | { readonly resumed: HeldEntry; readonly sandbox?: undefined };

const NOTHING: readonly never[] = Object.freeze([]);
/** Why a durable hook did not run here, in an engine with `durableHooks: 'record'`. */
export const RECORDED_FOR_WORKERS = 'recorded in the journal for a worker to run';
/** Why a journal entry is released rather than cleared. */
export const ENGINE_CLOSED_MEANWHILE = 'the engine closed before the durable hooks ended';

/**
 * One emit, top to bottom. `context` has been checked but not normalised yet.
 *
 * 1. select: the event's hooks whose matchers take the context;
 * 2. blocking: the blocking hooks in config order, one at a time, stopping at the first block
 *    (all at once for a `parallel` event);
 * 3. record: unless blocked, the durable non-blocking hooks are journaled (and only journaled, for
 *    other engines to run, with `durableHooks: 'record'`);
 * 4. later: the non-blocking hooks start, concurrently through the engine's limiter, or one after
 *    another for a `sequential` event;
 * 5. outcome: the merged decision, resolved when the blocking phase and the recording are over;
 *    its `settled` resolves when the later phase is over too.
 *
 * A resumed journal entry goes the same way with its durable hooks only: nothing blocks, nothing
 * is recorded again, and the entry is finished at the end of the later phase.
 */
export function runEmit(engine: EngineState, route: EventRoute, context: Readonly<Record<string, unknown>>, origin?: EmitOrigin): Promise<PendingEmitOutcome> {
  const observation = engine.observer === undefined ? undefined : observeEmit(engine, route.spec.name, context, origin);
  // The fast path: an unwatched event with no hooks costs one lookup.
  if (observation === undefined && route.hooks.length === 0 && origin === undefined) return route.quiet;

  // 1. Select.
  const selected = route.unconditional ? route.hooks : selectHooks(route.hooks, route.spec.name, context, matcherFieldsOf(engine.preset, route.spec));
  const chosen = origin?.resumed === undefined ? selected : selected.filter((hook) => hook.durable && !hook.blocking);
  if (chosen.length === 0 && origin?.resumed === undefined) {
    if (observation !== undefined) quietly(() => observation.ended(route.empty));
    return route.quiet;
  }
  const pending = runSelected(engine, route.spec, chosen, context, origin, observation);
  if (observation !== undefined) {
    const failed = (error: unknown): void => void quietly(() => observation.failed(error));
    pending.then((outcome) => outcome.settled.catch(failed), failed);
  }
  return pending;
}

async function runSelected(
  engine: EngineState,
  event: EventSpec,
  selected: readonly HookDefinition[],
  context: Readonly<Record<string, unknown>>,
  origin: EmitOrigin | undefined,
  observation: EmitObservation | undefined,
): Promise<PendingEmitOutcome> {
  const emit = new EmitRun(engine, event, selected, normalizeContext(event.name, context), origin, observation);
  const { reports, warnings, lane } = emit;

  // 2. Blocking.
  let blockedBy: string | undefined;
  if (event.parallel === true) {
    // Every blocking hook starts now; their decisions merge in config order once all have ended.
    const blocking = selected.flatMap((hook, position) => (hook.blocking && emit.runs(position) ? [position] : []));
    const done = await Promise.all(blocking.map((position) => emit.run(selected[position]!)));
    for (const [index, position] of blocking.entries()) {
      if (emit.decide(position, done[index]!).decision === 'block') blockedBy ??= selected[position]!.name;
    }
  } else {
    for (let position = 0; position < selected.length; position++) {
      const hook = selected[position]!;
      if (!hook.blocking || !emit.runs(position)) continue;
      if (blockedBy !== undefined) {
        reports[position] = skippedReport(hook, `"${blockedBy}" blocked the event`);
        continue;
      }
      const running = emit.run(hook);
      // An answer known at once is decided without a turn of the event loop's promise queue.
      if (emit.decide(position, running instanceof Promise ? await running : running).decision === 'block') blockedBy = hook.name;
    }
  }
  const later: number[] = [];
  const resumedEntry = origin?.resumed?.entry;
  for (let position = 0; position < selected.length; position++) {
    const hook = selected[position]!;
    if (hook.blocking || (blockedBy === undefined && !emit.runs(position))) continue;
    // A retried entry runs again only the hooks that are not done (see settledEarlier).
    const settledBefore = resumedEntry?.deliveries === undefined ? undefined : settledEarlier(resumedEntry, hook.name);
    if (blockedBy !== undefined) reports[position] = skippedReport(hook, `"${blockedBy}" blocked the event`);
    else if (settledBefore !== undefined) reports[position] = skippedReport(hook, settledBefore);
    else {
      later.push(position);
      reports[position] = pendingReport(hook);
    }
  }

  // 3. Record, before emit returns, so a host that got its answer can rely on the hooks running.
  const durable = emit.held === undefined && later.length > 0 ? later.filter((position) => selected[position]!.durable).map((position) => selected[position]!.name) : NOTHING;
  if (durable.length > 0 && engine.durability !== undefined) {
    const recorded = await engine.durability.record({ preset: engine.preset.name, event: event.name, context: emit.context, hooks: durable });
    if (recorded.warning !== undefined) warnings.push(recorded.warning);
    emit.held = recorded.held;
    // Recorded for the workers that share the journal: they run these hooks, this engine does not.
    if (engine.durability.recordOnly && recorded.warning === undefined) {
      // In place, in one pass: splicing each one out was quadratic in the hooks of the event.
      let kept = 0;
      for (const position of later) {
        if (selected[position]!.durable) reports[position] = skippedReport(selected[position]!, RECORDED_FOR_WORKERS);
        else later[kept++] = position;
      }
      later.length = kept;
    }
  }

  // 4. Later.
  const done = later.length === 0 ? undefined : runLater(event, selected, later, reports, emit, engine);

  // 5. Outcome.
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
    const all = warnings.slice();
    // What claiming the entry found: process groups of an earlier run that were not signalled.
    if (origin?.resumed !== undefined) all.push(...origin.resumed.warnings);
    for (const report of reports) if (!report.blocking) all.push(...laterWarnings(report));
    if (origin?.resumed !== undefined && selected.length === 0) {
      all.push(`no durable hook of "${event.name}" is configured for this context now; the journal entry was cleared without running anything`);
    }
    const notes = entry === undefined ? NOTHING : await finishEntry(entry, emit, later, lane.signal.aborted);
    all.push(...notes);
    const outcome = new Outcome(event.name, merged.decision, decidedBy, extras, reports, all);
    // Before `settled` resolves: a host that flushes its traces then finds the emit's span ended.
    if (observation !== undefined) quietly(() => observation.ended(outcome));
    return outcome;
  });
  // close() waits for the entry to be cleared or released, not only for the hooks.
  if (entry !== undefined) engine.work.track(settled);
  return new Outcome(event.name, merged.decision, decidedBy, extras, reports.slice(), warnings.slice(), settled);
}

/**
 * Clears a held entry once its durable hooks ended — or, when a retry policy answered, records the
 * attempts and retries or dead-letters it, disabling the targets a policy gave up on for good.
 * Resolves to the warnings to add to the outcome.
 */
async function finishEntry(entry: HeldEntry, emit: EmitRun, later: readonly number[], closed: boolean): Promise<readonly string[]> {
  if (closed) {
    const note = await entry.finish(ENGINE_CLOSED_MEANWHILE);
    return note === undefined ? NOTHING : [note];
  }
  const runs: DeliveryRun[] = [];
  for (const position of later) {
    const hook = emit.selected[position]!;
    const report = emit.reports[position]!;
    // The durable hooks that ran in this pass, and those given up on without running (a disabled target).
    if (hook.durable && (report.status !== 'skipped' || verdictOf(report) !== undefined)) runs.push({ hook, report, target: emit.targetOf(hook) });
  }
  const settlement = settleEntry(entry.entry, runs, Date.now());
  const notes: string[] = [];
  for (const run of runs) {
    const verdict = verdictOf(run.report);
    if (verdict?.next === 'dead' && verdict.disable === true && run.target !== undefined && emit.engine.durability !== undefined) {
      const note = await emit.engine.durability.disable(run.target, verdict.reason);
      if (note !== undefined) notes.push(note);
    }
  }
  const note = settlement.clear ? await entry.finish() : await entry.settle(settlement.attempts, settlement.next);
  if (note !== undefined) notes.push(note);
  return notes;
}

/**
 * What the hooks of one emit share — its context (and its JSON, made once), lane, sandbox,
 * observation and journal entry — and what they decided so far. One object per emit rather than a
 * closure per step: for an in-memory hook this bookkeeping is most of the cost.
 */
class EmitRun extends EmitPayload implements HookRunScope {
  readonly engine: EngineState;
  readonly event: EventSpec;
  readonly selected: readonly HookDefinition[];
  /** The host's lane, or the engine's own for its sandbox events. */
  readonly lane: HookLane;
  /** The session of one of the engine's own sandbox events: its sandboxed hooks run there. */
  readonly sandbox: SandboxSession | undefined;
  readonly observation: EmitObservation | undefined;
  /** Set once the durable hooks are journaled: the processes they start are recorded in the entry. */
  held: HeldEntry | undefined;
  /** Filled in as the hooks end; the non-blocking hooks still running get their `pending` report. */
  readonly reports: HookReport[];
  readonly warnings: string[] = [];
  /** The blocking hooks' honoured decisions, in the order they were decided, and who made each. */
  readonly effective: HookDecision[] = [];
  readonly deciders: string[] = [];
  /** Position → the position of the first identical hook, for an event whose identical hooks run once. */
  readonly #duplicates: Map<number, number> | undefined;

  constructor(engine: EngineState, event: EventSpec, selected: readonly HookDefinition[], context: EventContext, origin: EmitOrigin | undefined, observation: EmitObservation | undefined) {
    super(context, engine.preset);
    this.engine = engine;
    this.event = event;
    this.selected = selected;
    this.lane = origin?.sandbox === undefined ? engine.hostHooks : engine.ownHooks;
    this.sandbox = origin?.sandbox;
    this.observation = observation;
    this.held = origin?.resumed;
    this.reports = new Array<HookReport>(selected.length);
    this.#duplicates = event.runIdenticalOnce === true ? identicalHooks(selected) : undefined;
  }

  /** Whether the hook at `position` runs; one identical to an earlier hook gets its skipped report instead. */
  runs(position: number): boolean {
    const first = this.#duplicates?.get(position);
    if (first === undefined) return true;
    this.reports[position] = skippedReport(this.selected[position]!, `identical to "${this.selected[first]!.name}", which runs instead (identical hooks run once)`);
    return false;
  }

  /** Records a blocking hook's report and returns the decision the event honours. */
  decide(position: number, report: HookReport): HookDecision {
    this.reports[position] = report;
    if (report.status !== 'ok') this.warnings.push(...failureWarnings(report));
    const decision = honoured(report, this.event, this.warnings);
    this.effective.push(decision);
    this.deciders.push(report.name);
    return decision;
  }

  /**
   * Runs one hook of the emit, watched by the emit's observation, if any. A durable hook of a held
   * entry whose target was disabled (an endpoint that answered 410 Gone) is not run: it is given up on.
   */
  run(hook: HookDefinition): HookReport | Promise<HookReport> {
    const durability = this.engine.durability;
    if (this.held !== undefined && hook.durable && !hook.blocking && durability !== undefined) {
      const target = this.targetOf(hook);
      if (target !== undefined) return durability.disabledTarget(target).then((disabled) => (disabled === undefined ? this.#run(hook) : disabledReport(hook, disabled)));
    }
    return this.#run(hook);
  }

  /** A hook's target as its type names it (`identity`: an HTTP hook's URL), when the type names one. */
  targetOf(hook: HookDefinition): string | undefined {
    const identity = this.engine.registry.find(hook.type)?.type.identity;
    if (identity === undefined) return undefined;
    try {
      return identity(hook.options);
    } catch {
      return undefined;
    }
  }

  #run(hook: HookDefinition): HookReport | Promise<HookReport> {
    const installed = this.engine.registry.find(hook.type)!;
    const observation = this.observation;
    if (observation === undefined) return runHook(hook, installed, this, undefined);
    const watched = quietly(() => observation.hookStarted(hook, this.context));
    const running = runHook(hook, installed, this, watched?.traceContext);
    // Registered before the emit's own continuation, so a hook's observation ends before its emit's.
    if (watched !== undefined) {
      if (running instanceof Promise) void running.then((report) => quietly(() => watched.ended(report)));
      else quietly(() => watched.ended(running));
    }
    return running;
  }

  // A sandboxed hook runs in its run's sandbox session (the given one for the engine's own sandbox events).
  openSandbox(hook: HookDefinition, installed: InstalledType): (() => Promise<SandboxSession>) | undefined {
    if (!hook.sandbox || !installed.type.usesSandbox) return undefined;
    const { sandbox } = this;
    if (sandbox !== undefined) return () => Promise.resolve(sandbox);
    const { sessions } = this.engine;
    if (sessions === undefined) return undefined;
    const { context } = this;
    return () => sessions.get(String(context[this.engine.preset.sessionField]), runFacts(context));
  }

  deliveryFor(hook: HookDefinition): DeliveryCall | undefined {
    const entry = this.held;
    if (entry === undefined || !hook.durable || hook.blocking) return undefined;
    return deliveryCall(entry.messageKey(hook.name), entry.entry, hook.name, Date.now());
  }

  onProcessStarted(hook: HookDefinition): ((pid: number) => void) | undefined {
    const entry = hook.durable ? this.held : undefined;
    return entry === undefined ? undefined : (pid: number) => entry.attach(pid);
  }
}

// A durable hook whose target is disabled: given up on at once, so the entry is dead-lettered for a retry once it is re-enabled.
function disabledReport(hook: HookDefinition, disabled: DisabledTarget): HookReport {
  const reason = `${disabled.target} is disabled since ${new Date(disabled.disabledAt).toISOString()} (${disabled.reason}); re-enable it and retry its dead letters with: hookline journal retry --endpoint ${disabled.target}`;
  return { ...skippedReport(hook, reason), delivery: { next: 'dead', reason } };
}

// The later phase. A sequential event's hooks each take the limiter in turn, so they run in
// config order, the next one starting when the previous ended, whatever its status.
function runLater(
  event: EventSpec,
  selected: readonly HookDefinition[],
  positions: readonly number[],
  reports: HookReport[],
  emit: EmitRun,
  engine: EngineState,
): Promise<void> {
  const step = (position: number) => (): Promise<void> =>
    engine.limiter
      .run(() => emit.run(selected[position]!))
      .then((report) => {
        reports[position] = report;
      });
  if (event.sequential === true) {
    let chain: Promise<void> | undefined;
    for (const position of positions) chain = chain === undefined ? step(position)() : chain.then(step(position));
    return chain ?? Promise.resolve();
  }
  return Promise.all(positions.map((position) => step(position)())).then(() => undefined);
}

function observeEmit(engine: EngineState, event: string, context: Readonly<Record<string, unknown>>, origin: EmitOrigin | undefined): EmitObservation | undefined {
  const session = context[engine.preset.sessionField];
  const resumed = origin?.resumed !== undefined;
  return quietly(() =>
    engine.observer!.emitStarted({ event, preset: engine.preset.name, context, ...(typeof session === 'string' ? { session } : {}), ...(resumed ? { resumed } : {}) }),
  );
}

// Telemetry must never change an outcome: what an observer throws is dropped.
function quietly<T>(watch: () => T): T | undefined {
  try {
    return watch();
  } catch {
    return undefined;
  }
}

// A decision the event does not honour is recorded with a warning and counts as proceed;
// an extra it does not honour is dropped with a warning.
function honoured(report: HookReport, event: EventSpec, warnings: string[]): HookDecision {
  const given = report.decision ?? { decision: 'proceed' };
  const decision = withHonouredExtras(given, report.name, event, warnings);
  if (decision.decision === 'proceed' || event.honours.includes(decision.decision)) return decision;
  warnings.push(
    `hook "${report.name}" decided "${decision.decision}", which "${event.name}" does not honour (${event.honours.length === 0 ? 'it honours no decision' : `it honours ${event.honours.join(', ')}`}); counted as proceed`,
  );
  const { decision: _kind, reason: _reason, edge_to: _edge, ...extras } = decision;
  return { decision: 'proceed', ...extras };
}

function withHonouredExtras(decision: HookDecision, name: string, event: EventSpec, warnings: string[]): HookDecision {
  let kept: Record<string, unknown> | undefined;
  for (const extra of OUTCOME_EXTRAS) {
    if (decision[extra] === undefined || event.extras?.includes(extra) === true) continue;
    kept ??= { ...decision };
    delete kept[extra];
    if (extra === 'continue') delete kept['stop_reason'];
    warnings.push(`hook "${name}" set ${extra}, which "${event.name}" does not honour (${event.extras === undefined || event.extras.length === 0 ? 'it honours none' : `it honours ${event.extras.join(', ')}`}); ignored`);
  }
  return (kept as HookDecision | undefined) ?? decision;
}

// Position → the position of the first selected hook with the same type and keys.
function identicalHooks(selected: readonly HookDefinition[]): Map<number, number> {
  const first = new Map<string, number>();
  const duplicates = new Map<number, number>();
  for (const [position, hook] of selected.entries()) {
    const key = `${hook.type}\u0000${hook.blocking}\u0000${JSON.stringify(hook.options)}`;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, position);
    else duplicates.set(position, earlier);
  }
  return duplicates;
}

// A failure that the policy lets pass is still a failure: say so at the top of the outcome.
function failureWarnings(report: HookReport): string[] {
  if (report.status !== 'failed' && report.status !== 'timed_out') return [];
  const verb = report.status === 'failed' ? 'failed' : 'timed out';
  return [`hook "${report.name}" ${verb}: ${report.error ?? 'no detail'} — on_error made it "${report.decision?.decision ?? 'proceed'}"`];
}

// A non-blocking hook's decision is ignored, but a hook that answered "block" (a command that exited
// non-zero) usually means something went wrong: say so, as for a failure.
function laterWarnings(report: HookReport): string[] {
  if (report.status === 'ok' && report.decision?.decision === 'block') {
    return [`hook "${report.name}" decided "block"${report.decision.reason === undefined ? '' : `: ${report.decision.reason}`} — it is non-blocking, so the event was not held back`];
  }
  return failureWarnings(report);
}

function runFacts(context: Readonly<Record<string, unknown>>): RunFacts {
  const cwd = context['cwd'];
  const workflow = context['workflow_name'];
  return { workflowName: typeof workflow === 'string' ? workflow : '', ...(typeof cwd === 'string' ? { cwd } : {}) };
}
