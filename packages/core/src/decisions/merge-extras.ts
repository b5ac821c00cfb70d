import { OUTCOME_EXTRAS, type HookDecision } from './decision.ts';

/** The outcome fields the extras of an emit's decisions merge into; only the ones some hook set. */
export interface MergedExtras {
  readonly updated_input?: Readonly<Record<string, unknown>>;
  readonly additional_context?: readonly string[];
  readonly continue?: false;
  readonly stop_reason?: string;
  readonly system_messages?: readonly string[];
}

const NO_EXTRAS: MergedExtras = Object.freeze({});

/**
 * Merges the extras of decisions given in config order, with the names of the hooks that made them:
 * `updated_input` — the last one wins, with a warning naming every hook that set one, since only one
 * input can replace the action's; `additional_context` and `system_message` — all of them, in order;
 * `continue: false` — if any hook said so, with the first such hook's `stop_reason`.
 */
export function mergeExtras(
  decisions: readonly HookDecision[],
  names: readonly string[],
  warnings: string[],
): MergedExtras {
  // Most emits have no extras at all: answer them without building anything.
  if (!anyExtras(decisions)) return NO_EXTRAS;
  const merged: { -readonly [K in keyof MergedExtras]: MergedExtras[K] } = {};
  const inputs: string[] = [];
  const contexts: string[] = [];
  const messages: string[] = [];
  for (const [index, decision] of decisions.entries()) {
    if (decision.updated_input !== undefined) {
      merged.updated_input = decision.updated_input;
      inputs.push(names[index]!);
    }
    if (decision.additional_context !== undefined) contexts.push(decision.additional_context);
    if (decision.system_message !== undefined) messages.push(decision.system_message);
    if (decision.continue === false && merged.continue === undefined) {
      merged.continue = false;
      if (decision.stop_reason !== undefined) merged.stop_reason = decision.stop_reason;
    }
  }
  if (inputs.length > 1) {
    warnings.push(
      `hooks ${inputs.map((name) => `"${name}"`).join(', ')} each set updated_input; the last one in config order ("${inputs.at(-1)}") wins`,
    );
  }
  if (contexts.length > 0) merged.additional_context = contexts;
  if (messages.length > 0) merged.system_messages = messages;
  return merged;
}

// Loops, not `some` with a callback: this runs on every emit that ran a hook.
function anyExtras(decisions: readonly HookDecision[]): boolean {
  for (const decision of decisions) {
    for (const extra of OUTCOME_EXTRAS) if (decision[extra] !== undefined) return true;
  }
  return false;
}
