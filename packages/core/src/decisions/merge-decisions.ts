import type { HookDecision } from './decision.ts';

/** The winning decision of a sequence and the index of the hook that made it. */
export interface MergedDecision {
  readonly decision: HookDecision;
  /** Index into the merged list of the decision that won; `undefined` when everything proceeded. */
  readonly index: number | undefined;
}

const PROCEED: HookDecision = { decision: 'proceed' };

/**
 * Merges decisions given in config order: the first `block` beats everything; then the
 * first `ask` (a hook wants the user asked: an approval elsewhere must not skip the question); then
 * the earliest `skip` or `override`; then the first `allow`; otherwise `proceed`.
 */
export function mergeDecisions(decisions: readonly HookDecision[]): MergedDecision {
  let ask: number | undefined;
  let redirect: number | undefined;
  let allow: number | undefined;
  for (let index = 0; index < decisions.length; index++) {
    const decision = decisions[index]!;
    switch (decision.decision) {
      case 'block':
        return { decision, index };
      case 'ask':
        ask ??= index;
        break;
      case 'skip':
      case 'override':
        redirect ??= index;
        break;
      case 'allow':
        allow ??= index;
        break;
      case 'proceed':
        break;
    }
  }
  const index = ask ?? redirect ?? allow;
  return index === undefined ? { decision: PROCEED, index } : { decision: decisions[index]!, index };
}
