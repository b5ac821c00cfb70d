import { isApiError, isConnectionError } from './describe-request-error.ts';

/** The SDK's own backoff: 0.5 s doubling per retry, at most 8 s, minus up to 25 % jitter. */
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/**
 * How long to wait before retrying a failed request, or `undefined` when it must not be retried.
 * Retried: 429 (rate limited), 5xx (server errors, 529 overloaded) — unless the API says
 * `x-should-retry: false` — and failures to connect. A `retry-after-ms` or `retry-after` header
 * (seconds or an HTTP date) sets the delay; otherwise the SDK's exponential backoff does.
 */
export function retryDelayMs(
  error: unknown,
  retriesSoFar: number,
  random: () => number = Math.random,
): number | undefined {
  const backoff = Math.min(INITIAL_DELAY_MS * 2 ** retriesSoFar, MAX_DELAY_MS) * (1 - random() * 0.25);
  if (isConnectionError(error)) return backoff;
  if (!isApiError(error)) return undefined;
  if (error.status !== 429 && error.status < 500) return undefined;
  const headers = error.headers;
  if (headers?.get('x-should-retry') === 'false') return undefined;
  return retryAfterMs(headers) ?? backoff;
}

/** The server's requested delay in ms, from `retry-after-ms` or `retry-after`; `undefined` when absent or nonsense. */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now: number = Date.now(),
): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
