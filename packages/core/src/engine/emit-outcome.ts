import type { DecisionKind, HookDecision } from '../decisions/decision.ts';

/**
 * How a hook ended: `ok` (ran and answered by its protocol), `failed` (could not complete; the
 * decision then comes from `on_error`), `timed_out`, `skipped` (never ran: an earlier hook blocked),
 * or `pending` (non-blocking and still running when `emit` resolved; see `settled`).
 */
export type HookStatus = 'ok' | 'failed' | 'timed_out' | 'skipped' | 'pending';

/** One selected hook's part in an emit. Runner details such as `exit_code` are added. */
export interface HookReport {
  readonly name: string;
  readonly type: string;
  readonly blocking: boolean;
  readonly status: HookStatus;
  /** What the hook decided; for `failed`/`timed_out` the `on_error` decision. Absent when it did not run. */
  readonly decision?: HookDecision;
  readonly duration_ms?: number;
  /** Why the hook failed or timed out. A failure is never silent, even when the event proceeds. */
  readonly error?: string;
  /** Why the hook did not run, for `skipped`. */
  readonly skipped_because?: string;
  readonly warnings?: readonly string[];
  readonly [detail: string]: unknown;
}

/** The merged result of one emit: what the host must do, and every selected hook's report. */
export interface EmitOutcome {
  readonly event: string;
  readonly decision: DecisionKind;
  readonly reason?: string;
  /** The hook whose decision won the merge; absent when every hook proceeded. */
  readonly decided_by?: string;
  /** The node to go to instead, when the decision is `override`. */
  readonly edge_to?: string;
  /**
   * The action's replacement input, from the hooks that gave one (config order, the last wins, with
   * a warning when several did). Only for events that honour `updated_input`.
   */
  readonly updated_input?: Readonly<Record<string, unknown>>;
  /** Every hook's `additional_context`, in config order. */
  readonly additional_context?: readonly string[];
  /** `false` when a hook asked the host to stop altogether. */
  readonly continue?: false;
  /** The first stopping hook's reason, with `continue: false`. */
  readonly stop_reason?: string;
  /** Every hook's `system_message`, in config order. */
  readonly system_messages?: readonly string[];
  readonly hooks: readonly HookReport[];
  readonly warnings: readonly string[];
}

/**
 * What `emit` resolves to: the outcome as soon as the blocking phase is over, plus `settled`, which
 * resolves to the same outcome with every non-blocking hook's final report. `settled` is not
 * enumerable, so `JSON.stringify(outcome)` prints exactly the documented outcome shape.
 */
export type PendingEmitOutcome = EmitOutcome & { readonly settled: Promise<EmitOutcome> };
