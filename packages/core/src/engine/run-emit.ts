import type { EventContext } from '../context/event-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { HookDecision } from '../decisions/decision.ts';
import { mergeDecisions } from '../decisions/merge-decisions.ts';
import type { RunnerRegistry } from '../plugins/runner-registry.ts';
import type { EventSpec, Preset } from '../presets/preset.ts';
import { selectHooks } from '../selection/explain-selection.ts';
import type { Limiter } from './create-limiter.ts';
import type { EmitOutcome, HookReport, PendingEmitOutcome } from './emit-outcome.ts';
import { runHook, skippedReport } from './run-hook.ts';
import type { SandboxSessions } from './sandbox-sessions.ts';

/** The engine's parts an emit uses. */
export interface EmitScope {
  readonly preset: Preset;
  readonly registry: RunnerRegistry;
  readonly limiter: Limiter;
  readonly engineSignal: AbortSignal;
  readonly track: (work: Promise<unknown>) => void;
  readonly sessions?: SandboxSessions;
}

/**
 * One emit (SPEC §5): blocking hooks in config order, one at a time, merging after each and stopping
 * at the first block; then, unless blocked, the non-blocking hooks concurrently through the engine's
 * limiter. Resolves when the blocking phase is over.
 */
export async function runEmit(event: EventSpec, eventHooks: readonly HookDefinition[], context: EventContext, scope: EmitScope): Promise<PendingEmitOutcome> {
  const selected = selectHooks(eventHooks, context, scope.preset.matcherFields);
  const contextJson = JSON.stringify(context);
  const reports: HookReport[] = selected.map(pendingReport);
  const warnings: string[] = [];
  const effective: HookDecision[] = [];
  const deciders: string[] = [];
  const run = (hook: HookDefinition): Promise<HookReport> => {
    const installed = scope.registry.find(hook.type)!;
    const sessions = scope.sessions;
    const sandboxed = hook.sandbox && installed.type.usesSandbox && sessions !== undefined;
    return runHook(hook, {
      runner: installed.runner,
      context,
      contextJson,
      preset: scope.preset,
      engineSignal: scope.engineSignal,
      track: scope.track,
      ...(sandboxed ? { openSandbox: () => sessions.get(String(context['run_id'])) } : {}),
    });
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
    warnings.push(...failureWarnings(report));
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
  // Assigned in §6 key order rather than spread from temporary objects: this runs twice per emit.
  const outcome = (finalReports: readonly HookReport[], finalWarnings: readonly string[]): EmitOutcome => {
    const built: Record<string, unknown> = { event: context.event, decision: merged.decision.decision };
    if (merged.decision.reason !== undefined) built['reason'] = merged.decision.reason;
    if (decidedBy !== undefined) built['decided_by'] = decidedBy;
    if (merged.decision.decision === 'override' && merged.decision.edge_to !== undefined) built['edge_to'] = merged.decision.edge_to;
    built['hooks'] = finalReports;
    built['warnings'] = finalWarnings;
    return built as unknown as EmitOutcome;
  };
  const settled = Promise.all(nonBlocking).then(() => {
    const all = [...warnings];
    for (const report of reports) if (!report.blocking) all.push(...failureWarnings(report));
    return outcome([...reports], all);
  });
  const immediate = outcome([...reports], [...warnings]);
  Object.defineProperty(immediate, 'settled', { value: settled, enumerable: false });
  return immediate as PendingEmitOutcome;
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

function pendingReport(hook: HookDefinition): HookReport {
  return { name: hook.name, type: hook.type, blocking: hook.blocking, status: 'pending' };
}
