/** What a host does next: carry on, skip the current stage, stop with an error, or take another edge. */
export type DecisionKind = 'proceed' | 'skip' | 'block' | 'override';

/** Every decision kind, in the order the merge ranks them (weakest first). */
export const DECISION_KINDS: readonly DecisionKind[] = ['proceed', 'skip', 'override', 'block'];

/**
 * One hook's answer, in the wire format hooks print (command), return (HTTP) or produce (LLM,
 * script). `edge_to` is required for, and only meaningful with, `override`.
 */
export interface HookDecision {
  readonly decision: DecisionKind;
  readonly reason?: string;
  readonly edge_to?: string;
}

/** What a failed or timed-out hook decides instead of answering: the hook's `on_error` policy. */
export type OnErrorPolicy = 'proceed' | 'block';
