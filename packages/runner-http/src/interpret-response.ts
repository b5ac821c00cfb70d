import { parseDecisionText, type Preset, type RunResult } from '@hookline/core/plugin';
import { bodyExcerpt } from './body-excerpt.ts';
import { redactSecrets } from './redact-secrets.ts';
import type { HttpExchange } from './send-request.ts';

/** What a message about the answer needs. */
export interface AnswerScope {
  /** `POST https://host/path`, as messages show it. */
  readonly request: string;
  readonly maxResponseBytes: number;
  readonly secrets: readonly string[];
  readonly details: Readonly<Record<string, unknown>>;
  readonly warnings: readonly string[];
  /** The active preset: one with its own answer format (`claude`) reads JSON bodies through it. */
  readonly preset?: Preset;
  readonly event?: string;
}

/**
 * 2xx with a decision JSON body is that decision; 2xx with an empty or non-decision body
 * proceeds; 3xx (never followed) and every other status fail. Two cases the contract leaves open
 * are failures here, because treating them as `proceed` could silently drop a `block`: a JSON body
 * with a `decision` field that is not a valid decision, and a JSON body cut at the size cap.
 */
export function interpretResponse(answer: HttpExchange, scope: AnswerScope): RunResult {
  const { statusCode } = answer;
  const details: Record<string, unknown> = { ...scope.details, http_status: statusCode };
  if (answer.body.truncated) details['response_truncated'] = true;
  const warnings = [...scope.warnings];
  const text = answer.body.bytes.length === 0 ? '' : answer.body.bytes.toString('utf8');
  const status = answer.statusText === '' ? String(statusCode) : `${statusCode} ${answer.statusText}`;

  if (statusCode >= 300 && statusCode < 400) {
    const location = answer.location === undefined ? 'no Location header' : `Location: ${redactSecrets(answer.location, scope.secrets).slice(0, 300)}`;
    return { status: 'failed', error: `${scope.request} answered ${status} (${location}); redirects are not followed: set url to the final address`, warnings, details };
  }
  if (statusCode < 200 || statusCode >= 300) {
    const excerpt = bodyExcerpt(text, scope.secrets);
    return { status: 'failed', error: `${scope.request} answered ${status}${excerpt === '' ? ' with an empty body' : `: ${excerpt}`}`, warnings, details };
  }

  const trimmed = text.trim();
  if (answer.body.truncated) {
    if (trimmed.startsWith('{')) {
      return {
        status: 'failed',
        error: `${scope.request} answered ${status} with a JSON body larger than ${scope.maxResponseBytes} bytes; it was cut there, so no decision can be read from it (a decision must be smaller)`,
        warnings,
        details,
      };
    }
    warnings.push(`the response body was larger than ${scope.maxResponseBytes} bytes and was cut there; it held no decision, so the hook proceeds`);
    return { status: 'ok', decision: { decision: 'proceed' }, warnings, details };
  }
  if (trimmed === '') return { status: 'ok', decision: { decision: 'proceed' }, warnings, details };
  const readAnswer = scope.preset?.readAnswer;
  if (readAnswer !== undefined && trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return { status: 'failed', error: `${scope.request} answered ${status} with a body that starts like JSON but is not: ${bodyExcerpt(trimmed, scope.secrets)}`, warnings, details };
    }
    const answer = readAnswer(value, scope.event ?? '');
    if (answer !== undefined) return { status: 'ok', decision: answer.decision, warnings: [...warnings, ...answer.warnings], details: { ...details, ...answer.details } };
  }
  const decision = parseDecisionText(trimmed);
  if (decision !== undefined) return { status: 'ok', decision, warnings, details };
  if (looksLikeDecision(trimmed)) {
    return {
      status: 'failed',
      error: `${scope.request} answered ${status} with an invalid decision: ${bodyExcerpt(trimmed, scope.secrets)}; expected {"decision": "proceed"|"skip"|"block"|"override", "reason"?: string, "edge_to"?: string (required for override)}`,
      warnings,
      details,
    };
  }
  return { status: 'ok', decision: { decision: 'proceed' }, warnings, details };
}

// A JSON object that has a `decision` field meant to decide; anything else (HTML, {"ok": true}) is not one.
function looksLikeDecision(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'decision' in value;
  } catch {
    return false;
  }
}
