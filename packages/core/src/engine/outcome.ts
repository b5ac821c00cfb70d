import type { DecisionKind, HookDecision } from '../decisions/decision.ts';
import type { MergedExtras } from '../decisions/merge-extras.ts';
import type { EmitOutcome, HookReport, PendingEmitOutcome } from './emit-outcome.ts';

/**
 * The object `emit` resolves to. Its own enumerable properties are exactly the documented outcome, in its
 * key order; `settled` lives on the prototype (backed by a private field), so `JSON.stringify` and
 * spreading see only the outcome.
 */
export class Outcome implements PendingEmitOutcome {
  declare readonly event: string;
  declare readonly decision: DecisionKind;
  declare readonly reason?: string;
  declare readonly decided_by?: string;
  declare readonly edge_to?: string;
  declare readonly updated_input?: Readonly<Record<string, unknown>>;
  declare readonly additional_context?: readonly string[];
  declare readonly continue?: false;
  declare readonly stop_reason?: string;
  declare readonly system_messages?: readonly string[];
  declare readonly hooks: readonly HookReport[];
  declare readonly warnings: readonly string[];
  #settled: Promise<EmitOutcome> | undefined;

  /**
   * The outcome of `event` from the merged `decision` (made by `decidedBy`), the merged extras and
   * every hook's report. `settled` may be absent: the outcome is then final and `settled` resolves
   * to it. Built field by field, not from a spread object: an outcome is made for every emit.
   */
  constructor(
    event: string,
    decision: HookDecision,
    decidedBy: string | undefined,
    extras: MergedExtras,
    hooks: readonly HookReport[],
    warnings: readonly string[],
    settled?: Promise<EmitOutcome>,
  ) {
    const self = this as { -readonly [K in keyof EmitOutcome]: EmitOutcome[K] };
    self.event = event;
    self.decision = decision.decision;
    if (decision.reason !== undefined) self.reason = decision.reason;
    if (decidedBy !== undefined) self.decided_by = decidedBy;
    if (decision.decision === 'override' && decision.edge_to !== undefined) self.edge_to = decision.edge_to;
    if (extras.updated_input !== undefined) self.updated_input = extras.updated_input;
    if (extras.additional_context !== undefined) self.additional_context = extras.additional_context;
    if (extras.continue !== undefined) self.continue = extras.continue;
    if (extras.stop_reason !== undefined) self.stop_reason = extras.stop_reason;
    if (extras.system_messages !== undefined) self.system_messages = extras.system_messages;
    self.hooks = hooks;
    self.warnings = warnings;
    this.#settled = settled;
  }

  /** Resolves when every non-blocking hook of the emit is done, to the outcome with their final reports. */
  get settled(): Promise<EmitOutcome> {
    return (this.#settled ??= Promise.resolve(this));
  }
}
