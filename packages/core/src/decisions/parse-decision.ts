import { DECISION_KINDS, type DecisionKind, type HookDecision } from './decision.ts';

/**
 * Reads a decision object (`{"decision": …, "reason"?: …, "edge_to"?: …}`); unknown fields are
 * ignored. Returns `undefined` for anything that is not a valid decision — including `override`
 * without a non-empty `edge_to`, and a `reason` that is not a string — so callers apply their own
 * fallback rule (a command's exit code, an HTTP `proceed`).
 */
export function parseDecision(value: unknown): HookDecision | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const kind = record['decision'];
  if (typeof kind !== 'string' || !(DECISION_KINDS as readonly string[]).includes(kind)) return undefined;
  const reason = record['reason'];
  if (reason !== undefined && reason !== null && typeof reason !== 'string') return undefined;
  const edgeTo = record['edge_to'];
  if (kind === 'override') {
    if (typeof edgeTo !== 'string' || edgeTo.length === 0) return undefined;
    return withReason({ decision: 'override', edge_to: edgeTo }, reason);
  }
  return withReason({ decision: kind as DecisionKind }, reason);
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
