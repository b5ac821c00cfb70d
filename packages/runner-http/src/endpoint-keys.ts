import * as v from 'valibot';
import { durationSchema } from './duration.ts';

// "5000/min", "100/s", "20000/h": a count per unit.
const RATE = /^(\d+(?:\.\d+)?)\/(s|sec|second|m|min|minute|h|hour)$/;
const PER_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  sec: 1_000,
  second: 1_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
};

/** Requests per millisecond in a rate written as `"5000/min"`, `"100/s"` or `"20000/h"`; undefined when it is not one. */
export function parseRate(text: string): number | undefined {
  const match = RATE.exec(text.trim());
  if (match === null || Number(match[1]) <= 0) return undefined;
  return Number(match[1]) / PER_MS[match[2]!]!;
}

const circuitBreaker = v.strictObject({
  failure_ratio: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.minValue(0.01),
      v.maxValue(1),
      v.description("Open when at least this share of the window's attempts failed (default 0.7)."),
    ),
  ),
  min_requests: v.optional(
    v.pipe(
      v.number('must be a whole number'),
      v.integer('must be a whole number'),
      v.minValue(1),
      v.description('…and the window holds at least this many attempts (default 10).'),
    ),
  ),
  window: v.optional(durationSchema('How far back attempts count (default 5m).')),
  probe_after: v.optional(durationSchema('How long it stays open before one probe is let through (default 30s).')),
});

/**
 * The `endpoint` table of an HTTP hook: limits that protect its URL, for retried (durable) deliveries.
 * A delivery over a limit is deferred — put back in the journal for a moment — never queued, so a
 * slow or dead endpoint holds no worker slot that another endpoint's deliveries need.
 */
export const endpointKey = v.optional(
  v.pipe(
    v.strictObject(
      {
        max_in_flight: v.optional(
          v.pipe(
            v.number('must be a whole number'),
            v.integer('must be a whole number'),
            v.minValue(1),
            v.description('Deliveries in flight to this URL at once, per process (default 16).'),
          ),
        ),
        rate: v.optional(
          v.pipe(
            v.string('must be a rate such as "5000/min"'),
            v.check((text) => parseRate(text) !== undefined, 'must be a rate such as "5000/min", "100/s" or "20000/h"'),
            v.description(
              'Token-bucket rate limit for this URL, per process: "5000/min", "100/s", "20000/h" (default none).',
            ),
          ),
        ),
        burst: v.optional(
          v.pipe(
            v.number('must be a whole number'),
            v.integer('must be a whole number'),
            v.minValue(1),
            v.description(
              "The bucket's size: requests that may go at once after a quiet spell (default one second's worth of rate, at least 1).",
            ),
          ),
        ),
        circuit_breaker: v.optional(
          v.pipe(
            v.union(
              [v.boolean(), circuitBreaker],
              'must be true, false, or a table with failure_ratio, min_requests, window, probe_after',
            ),
            v.description(
              'Stop sending to a failing URL: open after failure_ratio of at least min_requests attempts in window fail, then let one probe through every probe_after (default on: 0.7, 10, 5m, 30s).',
            ),
          ),
        ),
      },
      'must be a table with max_in_flight, rate, burst, circuit_breaker',
    ),
    v.description(
      'Limits for this URL that retried deliveries respect: max_in_flight, rate ("5000/min"), burst, circuit_breaker.',
    ),
  ),
);
