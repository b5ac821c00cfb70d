import { DECISION_KINDS, type DecisionKind, type HookDecision } from './decision.ts';

/**
 * Reads a decision object (`{"decision": …, "reason"?: …, "edge_to"?: …}` plus the optional extras
 * `updated_input` (an object), `additional_context`, `stop_reason`, `system_message` (strings) and
 * `continue` (a boolean)); unknown fields are ignored. Returns `undefined` for anything that is not a
 * valid decision — including `override` without a non-empty `edge_to`, and a `reason` or extra of the
 * wrong type — so callers apply their own fallback rule (a command's exit code, an HTTP `proceed`).
 */
export function parseDecision(value: unknown): HookDecision | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const kind = record['decision'];
  if (typeof kind !== 'string' || !(DECISION_KINDS as readonly string[]).includes(kind)) return undefined;
  const reason = record['reason'];
  if (reason !== undefined && reason !== null && typeof reason !== 'string') return undefined;
  const extras = readExtras(record);
  if (extras === undefined) return undefined;
  const edgeTo = record['edge_to'];
  if (kind === 'override') {
    if (typeof edgeTo !== 'string' || edgeTo.length === 0) return undefined;
    return { ...withReason({ decision: 'override', edge_to: edgeTo }, reason), ...extras };
  }
  return { ...withReason({ decision: kind as DecisionKind }, reason), ...extras };
}

/**
 * Parses text that should hold exactly one decision JSON (surrounding whitespace allowed). Text with
 * anything else around the JSON — log lines, for example — is not a decision.
 */
export function parseDecisionText(text: string): HookDecision | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return parseDecision(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}

function withReason(decision: HookDecision, reason: unknown): HookDecision {
  return typeof reason === 'string' ? { ...decision, reason } : decision;
}

// The extras present in `record`, or undefined when one has the wrong type. Null counts as absent.
function readExtras(record: Record<string, unknown>): Partial<HookDecision> | undefined {
  const extras: Record<string, unknown> = {};
  for (const key of ['additional_context', 'stop_reason', 'system_message'] as const) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return undefined;
    extras[key] = value;
  }
  const proceed = record['continue'];
  if (proceed !== undefined && proceed !== null) {
    if (typeof proceed !== 'boolean') return undefined;
    extras['continue'] = proceed;
  }
  const input = record['updated_input'];
  if (input !== undefined && input !== null) {
    if (typeof input !== 'object' || Array.isArray(input)) return undefined;
    extras['updated_input'] = input;
  }
  return extras as Partial<HookDecision>;
}
