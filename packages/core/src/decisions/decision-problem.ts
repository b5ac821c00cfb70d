import { DECISION_KINDS } from './decision.ts';

const TEXT_FIELDS = ['reason', 'additional_context', 'stop_reason', 'system_message'] as const;

/**
 * Why a JSON object that carries a `decision` field is not a valid decision JSON, in words a hook
 * author can act on; `undefined` when `parseDecision` would accept it. Kept next to `parseDecision`
 * so that the two agree: every value this names is one `parseDecision` refuses.
 */
export function decisionProblem(record: Readonly<Record<string, unknown>>): string | undefined {
  const kind = record['decision'];
  if (typeof kind !== 'string' || !(DECISION_KINDS as readonly string[]).includes(kind)) {
    return `"decision" must be one of ${DECISION_KINDS.map((name) => `"${name}"`).join(', ')} (lower case), got ${shown(kind)}`;
  }
  if (kind === 'override' && (typeof record['edge_to'] !== 'string' || record['edge_to'] === ''))
    return '"override" needs a non-empty "edge_to" string';
  for (const field of TEXT_FIELDS) {
    const value = record[field];
    if (value !== undefined && value !== null && typeof value !== 'string')
      return `"${field}" must be a string, got ${shown(value)}`;
  }
  const proceed = record['continue'];
  if (proceed !== undefined && proceed !== null && typeof proceed !== 'boolean')
    return `"continue" must be true or false, got ${shown(proceed)}`;
  const input = record['updated_input'];
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input)))
    return `"updated_input" must be an object, got ${shown(input)}`;
  return undefined;
}

/** A value as a message quotes it: JSON, cut short. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 80 ? text : `${text.slice(0, 77)}…`;
}
