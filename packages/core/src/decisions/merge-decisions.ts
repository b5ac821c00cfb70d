import type { HookDecision } from './decision.ts';

/** The winning decision of a sequence and the index of the hook that made it. */
export interface MergedDecision {
  readonly decision: HookDecision;
  /** Index into the merged list of the decision that won; `undefined` when everything proceeded. */
  readonly index: number | undefined;
}

const PROCEED: HookDecision = { decision: 'proceed' };

/**
 * Merges decisions given in config order (SPEC §5.4): the first `block` beats everything; otherwise
 * the earliest `skip` or `override` wins; otherwise `proceed`.
 */
export function mergeDecisions(decisions: readonly HookDecision[]): MergedDecision {
  let winner: MergedDecision = { decision: PROCEED, index: undefined };
  for (const [index, decision] of decisions.entries()) {
    if (decision.decision === 'block') return { decision, index };
    if (decision.decision !== 'proceed' && winner.index === undefined) winner = { decision, index };
  }
  return winner;
}
