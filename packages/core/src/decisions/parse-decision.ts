import { DECISION_KINDS, type DecisionKind, type HookDecision } from './decision.ts';

// Built field by field before it is handed out as read-only.
type DecisionDraft = { -readonly [Key in keyof HookDecision]: HookDecision[Key] };

const TEXT_EXTRAS = ['additional_context', 'stop_reason', 'system_message'] as const;

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
  if (!isDecisionKind(kind)) return undefined;
  const reason = record['reason'];
  if (reason !== undefined && reason !== null && typeof reason !== 'string') return undefined;
  const edgeTo = typeof record['edge_to'] === 'string' && record['edge_to'].length > 0 ? record['edge_to'] : undefined;
  if (kind === 'override' && edgeTo === undefined) return undefined;
  // Built field by field in the documented order (decision, edge_to, reason, extras): this runs for
  // every answer, and most answers carry no extras.
  const decision: DecisionDraft = kind === 'override' ? { decision: kind, edge_to: edgeTo! } : { decision: kind };
  if (typeof reason === 'string') decision.reason = reason;
  return addExtras(record, decision) ? decision : undefined;
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

// Copies the extras present in `record` onto `decision`; false when one has the wrong type. Null
// counts as absent.
function addExtras(record: Record<string, unknown>, decision: DecisionDraft): boolean {
  for (const key of TEXT_EXTRAS) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return false;
    decision[key] = value;
  }
  const proceed = record['continue'];
  if (proceed !== undefined && proceed !== null) {
    if (typeof proceed !== 'boolean') return false;
    decision.continue = proceed;
  }
  const input = record['updated_input'];
  if (input !== undefined && input !== null) {
    if (typeof input !== 'object' || Array.isArray(input)) return false;
    decision.updated_input = input as Record<string, unknown>;
  }
  return true;
}

function isDecisionKind(value: unknown): value is DecisionKind {
  return typeof value === 'string' && (DECISION_KINDS as readonly string[]).includes(value);
}
