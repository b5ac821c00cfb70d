import { messageOf } from '@hookline/core/plugin';
import { MISSING_CREDENTIALS, isMissingCredentials } from './credentials.ts';

/** The parts of an SDK `APIError` the runner reads; duck-typed so a host's own SDK copy works too. */
interface ApiErrorLike {
  readonly status: number;
  readonly error?: unknown;
  readonly headers?: { get(name: string): string | null } | undefined;
}

/** True for an error that carries an HTTP status: the API (or a proxy) answered with an error. */
export function isApiError(error: unknown): error is ApiErrorLike & Error {
  return error instanceof Error && 'status' in error && typeof error.status === 'number';
}

/** True for a failure to reach the API at all (refused, reset, DNS), not counting timeouts. */
export function isConnectionError(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === 'APIConnectionError';
}

/**
 * One sentence for the report about why a request failed: the status, the API's error type and
 * message for an error answer, else the connection or parsing problem. Never the request headers.
 */
export function describeRequestError(error: unknown): string {
  if (isMissingCredentials(error)) return MISSING_CREDENTIALS;
  if (isApiError(error)) {
    const body = record(record(error.error)?.['error']);
    const type = typeof body?.['type'] === 'string' ? ` ${body['type']}` : '';
    const message = typeof body?.['message'] === 'string' ? body['message'] : otherMessage(error.message);
    const requestId = error.headers?.get('request-id');
    return `the Anthropic API answered ${error.status}${type}${message === '' ? '' : `: ${message}`}${requestId ? ` (request-id ${requestId})` : ''}`;
  }
  if (error instanceof SyntaxError) return `the Anthropic API's answer is not valid JSON (${error.message})`;
  if (error instanceof Error && error.constructor.name === 'APIConnectionTimeoutError')
    return 'the Anthropic API did not answer before the request timed out';
  if (isConnectionError(error)) {
    const cause = (error as Error).cause;
    const detail = cause instanceof Error ? describeCause(cause) : (error as Error).message;
    return `could not reach the Anthropic API: ${detail}`;
  }
  return messageOf(error);
}

// undici's "fetch failed" hides the useful part (ECONNREFUSED 127.0.0.1:9) one cause further down.
function describeCause(cause: Error): string {
  const inner = cause.cause;
  if (inner instanceof Error && inner.message !== '') return `${cause.message} (${inner.message})`;
  return cause.message;
}

// The SDK's message for a body without the API's error shape: "502 <html>…", or "502 status code (no body)".
function otherMessage(message: string): string {
  const text = message
    .replace(/^\d{3}\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === 'status code (no body)') return '';
  const characters = Array.from(text);
  return characters.length <= 200 ? text : `${characters.slice(0, 200).join('')}…`;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
