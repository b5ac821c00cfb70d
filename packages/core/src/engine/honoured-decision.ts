import { OUTCOME_EXTRAS, type HookDecision } from '../decisions/decision.ts';
import type { EventSpec } from '../presets/preset.ts';
import type { HookReport } from './emit-outcome.ts';

/**
 * The decision of a blocking hook as the event honours it. A decision the event does not honour is
 * recorded with a warning and counts as proceed; an extra it does not honour is dropped with a warning.
 */
export function honoured(report: HookReport, event: EventSpec, warnings: string[]): HookDecision {
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
    warnings.push(
      `hook "${name}" set ${extra}, which "${event.name}" does not honour (${event.extras === undefined || event.extras.length === 0 ? 'it honours none' : `it honours ${event.extras.join(', ')}`}); ignored`,
    );
  }
  return (kept as HookDecision | undefined) ?? decision;
}
