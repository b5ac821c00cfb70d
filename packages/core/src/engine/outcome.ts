import type { DecisionKind } from '../decisions/decision.ts';
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

  /** `settled` may be absent: the outcome is then final and `settled` resolves to it. */
  constructor(fields: EmitOutcome, settled?: Promise<EmitOutcome>) {
    const self = this as { -readonly [K in keyof EmitOutcome]: EmitOutcome[K] };
    self.event = fields.event;
    self.decision = fields.decision;
    if (fields.reason !== undefined) self.reason = fields.reason;
    if (fields.decided_by !== undefined) self.decided_by = fields.decided_by;
    if (fields.edge_to !== undefined) self.edge_to = fields.edge_to;
    if (fields.updated_input !== undefined) self.updated_input = fields.updated_input;
    if (fields.additional_context !== undefined) self.additional_context = fields.additional_context;
    if (fields.continue !== undefined) self.continue = fields.continue;
    if (fields.stop_reason !== undefined) self.stop_reason = fields.stop_reason;
    if (fields.system_messages !== undefined) self.system_messages = fields.system_messages;
    self.hooks = fields.hooks;
    self.warnings = fields.warnings;
    this.#settled = settled;
  }

  /** Resolves when every non-blocking hook of the emit is done, to the outcome with their final reports. */
  get settled(): Promise<EmitOutcome> {
    return (this.#settled ??= Promise.resolve(this));
  }
}
