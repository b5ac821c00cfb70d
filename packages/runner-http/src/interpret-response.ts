import { readAnswerText, type Preset, type RunResult } from '@hookline/core/plugin';
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
 * proceeds; 3xx (never followed) and every other status fail. A body that looks like JSON is
 * meant as an answer: when it cannot be honoured — not valid JSON, cut at the size cap, not an
 * object, a decision field of the wrong type or value — the hook failed, because treating it as
 * `proceed` could silently drop a `block` (`readAnswerText`, the same rule as command hooks).
 */
export function interpretResponse(answer: HttpExchange, scope: AnswerScope): RunResult {
  const { statusCode } = answer;
  const details: Record<string, unknown> = { ...scope.details, http_status: statusCode };
  if (answer.body.truncated) details['response_truncated'] = true;
  const warnings = [...scope.warnings];
  const text = answer.body.bytes.length === 0 ? '' : answer.body.bytes.toString('utf8');
  const status = answer.statusText === '' ? String(statusCode) : `${statusCode} ${answer.statusText}`;

  if (statusCode >= 300 && statusCode < 400) {
    const location =
      answer.location === undefined
        ? 'no Location header'
        : `Location: ${redactSecrets(answer.location, scope.secrets).slice(0, 300)}`;
    return {
      status: 'failed',
      error: `${scope.request} answered ${status} (${location}); redirects are not followed: set url to the final address`,
      warnings,
      details,
    };
  }
  if (statusCode < 200 || statusCode >= 300) {
    const excerpt = bodyExcerpt(text, scope.secrets);
    return {
      status: 'failed',
      error: `${scope.request} answered ${status}${excerpt === '' ? ' with an empty body' : `: ${excerpt}`}`,
      warnings,
      details,
    };
  }

  const reading = readAnswerText(text, {
    truncated: answer.body.truncated,
    capBytes: scope.maxResponseBytes,
    preset: scope.preset,
    event: scope.event ?? '',
    what: 'the body',
  });
  if (reading.kind === 'unreadable') {
    return {
      status: 'failed',
      error: `${scope.request} answered ${status}, but ${redactSecrets(reading.problem, scope.secrets)}`,
      warnings: [...warnings, ...reading.warnings],
      details,
    };
  }
  warnings.push(...reading.warnings);
  if (reading.kind === 'answer')
    return { status: 'ok', decision: reading.decision, warnings, details: { ...details, ...reading.details } };
  if (answer.body.truncated)
    warnings.push(
      `the response body was larger than ${scope.maxResponseBytes} bytes and was cut there; it held no decision, so the hook proceeds`,
    );
  return { status: 'ok', decision: { decision: 'proceed' }, warnings, details };
}
