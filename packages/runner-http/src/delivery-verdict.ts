import type { DeliveryCall, DeliveryVerdict } from '@hookline/core/plugin';
import type { RetryPolicy } from './retry-policy.ts';

/** How an attempt failed, as far as retrying is concerned. */
export type AttemptFailure =
  /** The endpoint answered with a status that is not 2xx. */
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs?: number; readonly error: string }
  /** No answer: connection refused or reset, DNS, TLS, or the attempt timed out. */
  | { readonly kind: 'no-answer'; readonly error: string }
  /** Something retrying cannot fix (a redirect, a refused private address, a missing secret). */
  | { readonly kind: 'final'; readonly error: string };

// Standard Webhooks: these mean "later, please"; any other 4xx means the request itself is wrong.
const RETRYABLE_STATUSES = new Set([408, 429]);

/** Whether a status is worth trying again: 408, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || RETRYABLE_STATUSES.has(status);
}

/**
 * What becomes of a message after a failed attempt: retried on the policy's schedule (jittered,
 * stretched to honour a `Retry-After` that fits before the deadline), or given up — for a 410 Gone
 * with its URL disabled. `random` is `Math.random` outside tests.
 */
export function deliveryVerdict(
  policy: RetryPolicy,
  delivery: DeliveryCall,
  failure: AttemptFailure,
  now: number,
  random: () => number = Math.random,
): DeliveryVerdict {
  if (failure.kind === 'status' && failure.status === 410) {
    return {
      next: 'dead',
      reason: `${failure.error} — the endpoint is gone: no message goes to it until it is re-enabled (hookline journal retry --endpoint URL)`,
      disable: true,
    };
  }
  if (failure.kind === 'final' || (failure.kind === 'status' && !isRetryableStatus(failure.status))) {
    return {
      next: 'dead',
      reason: `${failure.error} (not retried: only network errors, timeouts, 408, 429 and 5xx are)`,
    };
  }
  const attempts = delivery.attempt;
  if (attempts > policy.waits.length)
    return {
      next: 'dead',
      reason: `${failure.error} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: the retry schedule is used up)`,
    };
  const scheduled = policy.waits[attempts - 1]!;
  const jittered = policy.jitter ? Math.round(scheduled * (0.8 + 0.4 * random())) : scheduled;
  const asked = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  const afterMs = asked === undefined ? jittered : Math.max(jittered, asked);
  const deadline = delivery.firstAttemptAt + policy.deadlineMs;
  if (now + afterMs > deadline) {
    const why =
      asked !== undefined && asked > jittered
        ? `Retry-After asks for ${Math.ceil(asked / 1000)} s, past`
        : 'the next attempt would start after';
    return {
      next: 'dead',
      reason: `${failure.error} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${why} the retry deadline, ${new Date(deadline).toISOString()})`,
    };
  }
  return {
    next: 'retry',
    afterMs,
    counted: true,
    reason: `${failure.error} (attempt ${attempts}; next in ${afterMs < 1_000 ? `${afterMs} ms` : `${Math.round(afterMs / 1000)} s`})`,
  };
}

/**
 * A `Retry-After` header in milliseconds from `now`: delay-seconds or an HTTP date; undefined when
 * absent or unreadable (then the schedule decides).
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A delivery that did not go (its URL's circuit is open, or it is at its rate or in-flight limit):
 * back in `afterMs`, not counted as an attempt — unless that would pass the deadline of a message
 * already tried, which is then given up.
 */
export function deferralVerdict(
  policy: RetryPolicy,
  delivery: DeliveryCall,
  afterMs: number,
  reason: string,
  now: number,
): DeliveryVerdict {
  const deadline = delivery.firstAttemptAt + policy.deadlineMs;
  if (delivery.attempt > 1 && now + afterMs > deadline) {
    return {
      next: 'dead',
      reason: `${reason} (gave up after ${delivery.attempt - 1} attempt${delivery.attempt === 2 ? '' : 's'}: the retry deadline, ${new Date(deadline).toISOString()}, passed while it was deferred)`,
    };
  }
  return { next: 'retry', afterMs, counted: false, reason };
}
