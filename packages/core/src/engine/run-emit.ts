import { normalizeContext } from '../context/normalize-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import { OUTCOME_EXTRAS, type HookDecision } from '../decisions/decision.ts';
import { mergeDecisions } from '../decisions/merge-decisions.ts';
import { mergeExtras } from '../decisions/merge-extras.ts';
import type { EmitObservation, EngineObserver } from '../plugins/engine-observer.ts';
import type { RunnerRegistry } from '../plugins/runner-registry.ts';
import { matcherFieldsOf, type EventSpec, type Preset } from '../presets/preset.ts';
import { selectHooks } from '../selection/explain-selection.ts';
import type { Limiter } from './create-limiter.ts';
import type { EmitOutcome, HookReport, PendingEmitOutcome } from './emit-outcome.ts';
import { EmitPayload } from './hook-call.ts';
import { Outcome } from './outcome.ts';
import { runHook, skippedReport } from './run-hook.ts';
import type { RunFacts, SessionSource } from './sandbox-sessions.ts';
import type { Durability, HeldEntry } from './durable-entries.ts';

/** The engine's parts an emit uses; built once per engine. */
export interface EmitScope {
  readonly preset: Preset;
  readonly registry: RunnerRegistry;
  readonly limiter: Limiter;
  readonly engineSignal: AbortSignal;
  readonly live: Set<() => void>;
  readonly track: (work: Promise<unknown>) => void;
  /** Where sandboxed hooks get their session; absent when the engine has no provider. */
  readonly sessions?: SessionSource;
  /** Where durable hooks are journaled; absent when the engine has no journal. */
  readonly durability?: Durability;
  /** Told about every emit and hook run (tracing); absent, it costs nothing. */
  readonly observer?: EngineObserver;
}

const NOTHING: readonly never[] = Object.freeze([]);

/** What the engine knows about one event ahead of any emit. */
export interface EventRoute {
  readonly spec: EventSpec;
  /** The event's enabled hooks, in config order. */
  readonly hooks: readonly HookDefinition[];
  /** The outcome of an emit that selects no hook: immutable, so made once and shared. */
  readonly quiet: Promise<PendingEmitOutcome>;
}

/** Prepares the route of one event. */
export function eventRoute(spec: EventSpec, hooks: readonly HookDefinition[]): EventRoute {
  const quiet = new Outcome({ event: spec.name, decision: 'proceed', hooks: NOTHING, warnings: NOTHING });
  Object.freeze(quiet);
  return { spec, hooks, quiet: Promise.resolve(quiet) };
}

/**
 * One emit (SPEC §5): blocking hooks in config order, one at a time, stopping at the first block;
 * then, unless blocked, the durable hooks are journaled and the non-blocking hooks start —
 * concurrently through the engine's limiter, or one after another for a `sequential` event.
 * Resolves when the blocking phase (and the journaling) is over. `context` has been checked but not
 * normalised yet.
 */
export function runEmit(route: EventRoute, context: Readonly<Record<string, unknown>>, scope: EmitScope): Promise<PendingEmitOutcome> {
  const observation = scope.observer === undefined ? undefined : observeEmit(scope.observer, route.spec.name, context, scope.preset, false);
  if (observation !== undefined) return observedEmit(route, context, scope, observation);
  if (route.hooks.length === 0) return route.quiet;
  const selected = selectHooks(route.hooks, route.spec.name, context, matcherFieldsOf(scope.preset, route.spec));
  return selected.length === 0 ? route.quiet : runSelected(route.spec, selected, context, scope, undefined);
}

// Kept apart so the unobserved path above stays as short as it was.
function observedEmit(route: EventRoute, context: Readonly<Record<string, unknown>>, scope: EmitScope, observation: EmitObservation): Promise<PendingEmitOutcome> {
  const selected = route.hooks.length === 0 ? NOTHING : selectHooks(route.hooks, route.spec.name, context, matcherFieldsOf(scope.preset, route.spec));
  if (selected.length === 0) {
    quietly(() => observation.ended({ event: route.spec.name, decision: 'proceed', hooks: NOTHING, warnings: NOTHING }));
    return route.quiet;
  }
  const pending = runSelected(route.spec, selected, context, scope, observation);
  pending.then(
    (outcome) => outcome.settled.catch((error: unknown) => quietly(() => observation.failed(error))),
    (error: unknown) => quietly(() => observation.failed(error)),
  );
  return pending;
}

async function runSelected(
  event: EventSpec,
  selected: readonly HookDefinition[],
  context: Readonly<Record<string, unknown>>,
  scope: EmitScope,
  observation: EmitObservation | undefined,
): Promise<PendingEmitOutcome> {
  const payload = new EmitPayload(normalizeContext(event.name, context), scope.preset);
  const reports: HookReport[] = selected.map(pendingReport);
  const warnings: string[] = [];
  const effective: HookDecision[] = [];
  const deciders: string[] = [];
  // Set once the durable hooks are journaled: the processes they start are recorded in the entry.
  let held: HeldEntry | undefined;
  const run = hookRunner(payload, scope, observation, () => held);
  const duplicates = event.runIdenticalOnce === true ? identicalHooks(selected) : undefined;
  const runs = (position: number): boolean => {
    const first = duplicates?.get(position);
    if (first === undefined) return true;
    reports[position] = skippedReport(selected[position]!, `identical to "${selected[first]!.name}", which runs instead (identical hooks run once)`);
    return false;
  };
  const record = (position: number, report: HookReport): HookDecision => {
    reports[position] = report;
    if (report.status !== 'ok') warnings.push(...failureWarnings(report));
    const decision = honoured(report, event, warnings);
    effective.push(decision);
    deciders.push(report.name);
    return decision;
  };

  let blockedBy: string | undefined;
  if (event.parallel === true) {
    // Every blocking hook starts now; their decisions merge in config order once all have ended.
    const blocking = selected.flatMap((hook, position) => (hook.blocking && runs(position) ? [position] : []));
    const done = await Promise.all(blocking.map((position) => run(selected[position]!)));
    for (const [index, position] of blocking.entries()) {
      if (record(position, done[index]!).decision === 'block') blockedBy ??= selected[position]!.name;
    }
  } else {
    for (let position = 0; position < selected.length; position++) {
      const hook = selected[position]!;
      if (!hook.blocking || !runs(position)) continue;
      if (blockedBy !== undefined) {
        reports[position] = skippedReport(hook, `"${blockedBy}" blocked the event`);
        continue;
      }
      if (record(position, await run(hook)).decision === 'block') blockedBy = hook.name;
    }
  }

  const later: number[] = [];
  for (let position = 0; position < selected.length; position++) {
    const hook = selected[position]!;
    if (hook.blocking || (blockedBy === undefined && !runs(position))) continue;
    if (blockedBy !== undefined) reports[position] = skippedReport(hook, `"${blockedBy}" blocked the event`);
    else later.push(position);
  }

  // Journaled before emit returns, so a host that got its answer can rely on the hooks running.
  const durable = later.filter((position) => selected[position]!.durable).map((position) => selected[position]!.name);
  if (durable.length > 0 && scope.durability !== undefined) {
    const recorded = await scope.durability.record({ preset: scope.preset.name, event: event.name, context: payload.context, hooks: durable });
    if (recorded.warning !== undefined) warnings.push(recorded.warning);
    held = recorded.held;
  }
  const done = runLater(event, selected, later, reports, run, scope);

  const merged = mergeDecisions(effective);
  const decidedBy = merged.index === undefined ? undefined : deciders[merged.index];
  const extras = mergeExtras(effective, deciders, warnings);
  const fields = (hooks: readonly HookReport[], finalWarnings: readonly string[]): EmitOutcome => ({
    event: event.name,
    decision: merged.decision.decision,
    ...(merged.decision.reason === undefined ? {} : { reason: merged.decision.reason }),
    ...(decidedBy === undefined ? {} : { decided_by: decidedBy }),
    ...(merged.decision.decision === 'override' && merged.decision.edge_to !== undefined ? { edge_to: merged.decision.edge_to } : {}),
    ...extras,
    hooks,
    warnings: finalWarnings,
  });
  if (later.length === 0) {
    const outcome = new Outcome(fields(reports, warnings));
    if (observation !== undefined) quietly(() => observation.ended(outcome));
    return outcome;
  }
  const settled = done.then(async () => {
    const all = warnings.slice();
    for (const report of reports) if (!report.blocking) all.push(...laterWarnings(report));
    const note = await held?.finish(scope.engineSignal.aborted ? 'the engine closed before the durable hooks ended' : undefined);
    if (note !== undefined) all.push(note);
    const outcome = new Outcome(fields(reports, all));
    // Before `settled` resolves: a host that flushes its traces then finds the emit's span ended.
    if (observation !== undefined) quietly(() => observation.ended(outcome));
    return outcome;
  });
  // close() waits for the entry to be cleared or released, not only for the hooks.
  if (held !== undefined) scope.track(settled);
  return new Outcome(fields(reports.slice(), warnings.slice()), settled);
}

/**
 * Runs the durable hooks of a journaled emit again (`engine.resume()`): the event's durable hooks
 * that the current config selects for the stored context — a config edited since runs as edited —
 * then clears the entry, or releases it when the engine closed meanwhile.
 */
export function runJournaled(route: EventRoute, context: Readonly<Record<string, unknown>>, scope: EmitScope, held: HeldEntry): Promise<EmitOutcome> {
  const observation = scope.observer === undefined ? undefined : observeEmit(scope.observer, route.spec.name, context, scope.preset, true);
  if (observation === undefined) return rerunJournaled(route, context, scope, held, undefined);
  return rerunJournaled(route, context, scope, held, observation).then(
    (outcome) => {
      quietly(() => observation.ended(outcome));
      return outcome;
    },
    (error: unknown) => {
      quietly(() => observation.failed(error));
      throw error;
    },
  );
}

async function rerunJournaled(route: EventRoute, context: Readonly<Record<string, unknown>>, scope: EmitScope, held: HeldEntry, observation: EmitObservation | undefined): Promise<EmitOutcome> {
  const event = route.spec;
  const selected = selectHooks(route.hooks, event.name, context, matcherFieldsOf(scope.preset, event)).filter((hook) => hook.durable && !hook.blocking);
  const reports: HookReport[] = selected.map(pendingReport);
  const warnings: string[] = [];
  const run = hookRunner(new EmitPayload(normalizeContext(event.name, context), scope.preset), scope, observation, () => held);
  await runLater(event, selected, selected.map((_, position) => position), reports, run, scope);
  for (const report of reports) warnings.push(...laterWarnings(report));
  if (selected.length === 0) warnings.push(`no durable hook of "${event.name}" is configured for this context now; the journal entry was cleared without running anything`);
  const note = await held.finish(scope.engineSignal.aborted ? 'the engine closed before the durable hooks ended' : undefined);
  if (note !== undefined) warnings.push(note);
  return { event: event.name, decision: 'proceed', hooks: reports, warnings };
}

function hookRunner(payload: EmitPayload, scope: EmitScope, observation: EmitObservation | undefined, held: () => HeldEntry | undefined): (hook: HookDefinition) => Promise<HookReport> {
  return (hook) => {
    const installed = scope.registry.find(hook.type)!;
    const sessions = scope.sessions;
    const sandboxed = hook.sandbox && installed.type.usesSandbox && sessions !== undefined;
    const open = sandboxed ? () => sessions.get(String(payload.context[scope.preset.sessionField]), runFacts(payload.context)) : undefined;
    const entry = hook.durable ? held() : undefined;
    const onProcessStarted = entry === undefined ? undefined : (pid: number) => entry.attach(pid);
    if (observation === undefined) return runHook(hook, installed, payload, scope, open, undefined, onProcessStarted);
    const watched = quietly(() => observation.hookStarted(hook, payload.context));
    const running = runHook(hook, installed, payload, scope, open, watched?.traceContext, onProcessStarted);
    // Registered before the emit's own continuation, so a hook's observation ends before its emit's.
    if (watched !== undefined) void running.then((report) => quietly(() => watched.ended(report)));
    return running;
  };
}

function observeEmit(observer: EngineObserver, event: string, context: Readonly<Record<string, unknown>>, preset: Preset, resumed: boolean): EmitObservation | undefined {
  const session = context[preset.sessionField];
  return quietly(() =>
    observer.emitStarted({ event, preset: preset.name, context, ...(typeof session === 'string' ? { session } : {}), ...(resumed ? { resumed } : {}) }),
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

// The non-blocking phase. A sequential event's hooks each take the limiter in turn, so they run in
// config order, the next one starting when the previous ended, whatever its status.
function runLater(
  event: EventSpec,
  selected: readonly HookDefinition[],
  positions: readonly number[],
  reports: HookReport[],
  run: (hook: HookDefinition) => Promise<HookReport>,
  scope: EmitScope,
): Promise<void> {
  const step = (position: number) => (): Promise<void> =>
    scope.limiter
      .run(() => run(selected[position]!))
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

// SPEC §3: a decision the event does not honour is recorded with a warning and counts as proceed;
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

function pendingReport(hook: HookDefinition): HookReport {
  return { name: hook.name, type: hook.type, blocking: hook.blocking, status: 'pending' };
}
