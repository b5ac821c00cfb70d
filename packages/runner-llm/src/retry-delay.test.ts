import { describe, expect, test } from 'vitest';
import { retryAfterMs, retryDelayMs } from './retry-delay.ts';

/** An SDK-shaped API error: a status and response headers. */
function apiError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`${status}`), { status, headers: new Headers(headers) });
}

describe('retryDelayMs', () => {
  test('429 and 5xx are retried; other statuses are not', () => {
    expect(retryDelayMs(apiError(429), 0, () => 0)).toBe(500);
    expect(retryDelayMs(apiError(500), 1, () => 0)).toBe(1_000);
    expect(retryDelayMs(apiError(529), 5, () => 0)).toBe(8_000);
    for (const status of [400, 401, 403, 404, 408, 409, 413, 422])
      expect(retryDelayMs(apiError(status), 0), String(status)).toBeUndefined();
  });

  test('the server’s retry-after wins over the backoff; x-should-retry: false forbids', () => {
    expect(retryDelayMs(apiError(429, { 'retry-after': '3' }), 0)).toBe(3_000);
    expect(retryDelayMs(apiError(503, { 'retry-after-ms': '250' }), 0)).toBe(250);
    expect(retryDelayMs(apiError(503, { 'x-should-retry': 'false' }), 0)).toBeUndefined();
  });

  test('jitter takes up to a quarter off', () => {
    expect(retryDelayMs(apiError(500), 0, () => 0.999)).toBeCloseTo(375.1, 0);
  });

  test('errors that are neither API nor connection errors are not retried', () => {
    expect(retryDelayMs(new SyntaxError('bad JSON'), 0)).toBeUndefined();
    expect(retryDelayMs('weird', 0)).toBeUndefined();
  });
});

describe('retryAfterMs', () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  test('seconds, fractions, an HTTP date, and nonsense', () => {
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2_000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': 'Sun, 29 Nov 2026 12:00:07 GMT' }), now)).toBe(7_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Sun, 29 Nov 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({}))).toBeUndefined();
  });
});
