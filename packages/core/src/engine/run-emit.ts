import { normalizeContext } from '../context/normalize-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { HookDecision } from '../decisions/decision.ts';
import { mergeDecisions } from '../decisions/merge-decisions.ts';
import type { RunnerRegistry } from '../plugins/runner-registry.ts';
import type { EventSpec, Preset } from '../presets/preset.ts';
import { selectHooks } from '../selection/explain-selection.ts';
import type { Limiter } from './create-limiter.ts';
import type { EmitOutcome, HookReport, PendingEmitOutcome } from './emit-outcome.ts';
import { EmitPayload } from './hook-call.ts';
import { Outcome } from './outcome.ts';
import { runHook, skippedReport } from './run-hook.ts';
import type { RunFacts, SessionSource } from './sandbox-sessions.ts';

/** The engine's parts an emit uses; built once per engine. */
export interface EmitScope {
  readonly preset: Preset;
  readonly registry: RunnerRegistry;
  readonly limiter: Limiter;
  readonly engineSignal: AbortSignal;
  readonly live: Set<() => void>;
  readonly track: (work: Promise<unknown>) => void;
  /** Where sandboxed hooks get their run's session; absent when the engine has no provider. */
  readonly sessions?: SessionSource;
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
 * then, unless blocked, the non-blocking hooks concurrently through the engine's limiter. Resolves
 * when the blocking phase is over. `context` has been checked but not normalised yet.
 */
export function runEmit(route: EventRoute, context: Readonly<Record<string, unknown>>, scope: EmitScope): Promise<PendingEmitOutcome> {
  if (route.hooks.length === 0) return route.quiet;
  const selected = selectHooks(route.hooks, route.spec.name, context, scope.preset.matcherFields);
  return selected.length === 0 ? route.quiet : runSelected(route.spec, selected, context, scope);
}

async function runSelected(event: EventSpec, selected: readonly HookDefinition[], context: Readonly<Record<string, unknown>>, scope: EmitScope): Promise<PendingEmitOutcome> {
  const payload = new EmitPayload(normalizeContext(event.name, context));
  const reports: HookReport[] = selected.map(pendingReport);
  const warnings: string[] = [];
  const effective: HookDecision[] = [];
  const deciders: string[] = [];
  const run = (hook: HookDefinition): Promise<HookReport> => {
    const installed = scope.registry.find(hook.type)!;
    const sessions = scope.sessions;
    const sandboxed = hook.sandbox && installed.type.usesSandbox && sessions !== undefined;
    return runHook(hook, installed.runner, payload, scope, sandboxed ? () => sessions.get(String(payload.context['run_id']), runFacts(payload.context)) : undefined);
  };

  let blockedBy: string | undefined;
  for (let position = 0; position < selected.length; position++) {
    const hook = selected[position]!;
    if (!hook.blocking) continue;
    if (blockedBy !== undefined) {
      reports[position] = skippedReport(hook, `"${blockedBy}" blocked the event`);
      continue;
    }
    const report = await run(hook);
    reports[position] = report;
    if (report.status !== 'ok') warnings.push(...failureWarnings(report));
    const decision = honoured(report, event, warnings);
    effective.push(decision);
    deciders.push(hook.name);
    if (decision.decision === 'block') blockedBy = hook.name;
  }

  const nonBlocking: Array<Promise<void>> = [];
  for (let position = 0; position < selected.length; position++) {
    const hook = selected[position]!;
    if (hook.blocking) continue;
    if (blockedBy !== undefined) {
      reports[position] = skippedReport(hook, `"${blockedBy}" blocked the event`);
      continue;
    }
    nonBlocking.push(
      scope.limiter
        .run(() => run(hook))
        .then((report) => {
          reports[position] = report;
        }),
    );
  }

  const merged = mergeDecisions(effective);
  const decidedBy = merged.index === undefined ? undefined : deciders[merged.index];
  const fields = (hooks: readonly HookReport[], finalWarnings: readonly string[]): EmitOutcome => ({
    event: event.name,
    decision: merged.decision.decision,
    ...(merged.decision.reason === undefined ? {} : { reason: merged.decision.reason }),
    ...(decidedBy === undefined ? {} : { decided_by: decidedBy }),
    ...(merged.decision.decision === 'override' && merged.decision.edge_to !== undefined ? { edge_to: merged.decision.edge_to } : {}),
    hooks,
    warnings: finalWarnings,
  });
  if (nonBlocking.length === 0) return new Outcome(fields(reports, warnings));
  const settled = Promise.all(nonBlocking).then(() => {
    const all = warnings.slice();
    for (const report of reports) if (!report.blocking) all.push(...failureWarnings(report));
    return new Outcome(fields(reports, all));
  });
  return new Outcome(fields(reports.slice(), warnings.slice()), settled);
}

// SPEC §3: a decision the event does not honour is recorded with a warning and counts as proceed.
function honoured(report: HookReport, event: EventSpec, warnings: string[]): HookDecision {
  const decision = report.decision ?? { decision: 'proceed' };
  if (decision.decision === 'proceed' || event.honours.includes(decision.decision)) return decision;
  warnings.push(
    `hook "${report.name}" decided "${decision.decision}", which "${event.name}" does not honour (${event.honours.length === 0 ? 'it honours no decision' : `it honours ${event.honours.join(', ')}`}); counted as proceed`,
  );
  return { decision: 'proceed' };
}

// A failure that the policy lets pass is still a failure: say so at the top of the outcome.
function failureWarnings(report: HookReport): string[] {
  if (report.status !== 'failed' && report.status !== 'timed_out') return [];
  const verb = report.status === 'failed' ? 'failed' : 'timed out';
  return [`hook "${report.name}" ${verb}: ${report.error ?? 'no detail'} — on_error made it "${report.decision?.decision ?? 'proceed'}"`];
}

function runFacts(context: Readonly<Record<string, unknown>>): RunFacts {
  const cwd = context['cwd'];
  return { workflowName: String(context['workflow_name']), ...(typeof cwd === 'string' ? { cwd } : {}) };
}

function pendingReport(hook: HookDefinition): HookReport {
  return { name: hook.name, type: hook.type, blocking: hook.blocking, status: 'pending' };
}
