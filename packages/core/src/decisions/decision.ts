/**
 * What a host does next: carry on, skip the current stage, stop with an error, take another edge,
 * or — for hosts that gate actions behind a permission prompt — let the action through without
 * asking (`allow`) or ask the user (`ask`).
 */
export type DecisionKind = 'proceed' | 'allow' | 'skip' | 'override' | 'ask' | 'block';

/** Every decision kind, in the order the merge ranks them (weakest first). */
export const DECISION_KINDS: readonly DecisionKind[] = ['proceed', 'allow', 'skip', 'override', 'ask', 'block'];

/**
 * One hook's answer, in the wire format hooks print (command), return (HTTP) or produce (LLM,
 * script). `edge_to` is required for, and only meaningful with, `override`. The other optional
 * fields are extras a host may honour whatever the decision (see {@link OUTCOME_EXTRAS}); each
 * event of a preset says which it honours.
 */
export interface HookDecision {
  readonly decision: DecisionKind;
  readonly reason?: string;
  readonly edge_to?: string;
  /** A replacement for the action's input (a tool call's arguments), as a JSON object. */
  readonly updated_input?: Readonly<Record<string, unknown>>;
  /** Text the host adds to what its model sees. */
  readonly additional_context?: string;
  /** `false` asks the host to stop altogether after this event (not just to block the action). */
  readonly continue?: boolean;
  /** Why the host stops, shown to the user when `continue` is false. */
  readonly stop_reason?: string;
  /** A message the host shows the user. */
  readonly system_message?: string;
}

/** The extras of a decision, by the name an event lists in `EventSpec.extras`. */
export type OutcomeExtra = 'updated_input' | 'additional_context' | 'continue' | 'system_message';

/** Every extra a decision can carry (`continue` stands for `continue` with `stop_reason`). */
export const OUTCOME_EXTRAS: readonly OutcomeExtra[] = [
  'updated_input',
  'additional_context',
  'continue',
  'system_message',
];

/** What a failed or timed-out hook decides instead of answering: the hook's `on_error` policy. */
export type OnErrorPolicy = 'proceed' | 'block';
