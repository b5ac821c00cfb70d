import * as v from 'valibot';
import { durationSchema } from './duration.ts';

/**
 * Named retry schedules: the waits between attempts after the first, which is immediate.
 * `standard-webhooks` is the schedule the Standard Webhooks guidance and Svix use (5 s … 10 h, about
 * 27.6 hours in all); `exponential` doubles from 10 s to a 15-minute cap, ten retries (Convoy's shape).
 */
export const RETRY_SCHEDULES = {
  'standard-webhooks': ['5s', '5m', '30m', '2h', '5h', '10h', '10h'],
  exponential: ['10s', '20s', '40s', '80s', '160s', '320s', '640s', '15m', '15m', '15m'],
} as const;

/** The name of one of {@link RETRY_SCHEDULES}. */
export type RetryScheduleName = keyof typeof RETRY_SCHEDULES;

const scheduleNames = Object.keys(RETRY_SCHEDULES) as RetryScheduleName[];
const scheduleName = v.picklist(
  scheduleNames,
  `must be ${scheduleNames.map((name) => `"${name}"`).join(' or ')}, or a list of durations`,
);
const explicitSchedule = v.pipe(
  v.array(durationSchema('The wait before each retry.'), 'must be a list of durations such as ["5s", "5m", "1h"]'),
  v.minLength(1, 'must list at least one wait (leave `retry` out for a single attempt)'),
  v.maxLength(50, 'may list at most 50 waits'),
);
const schedule = v.union(
  [scheduleName, explicitSchedule],
  `must be ${scheduleNames.map((name) => `"${name}"`).join(' or ')}, or a list of durations such as ["5s", "5m", "1h"]`,
);

/**
 * The `retry` key of an HTTP hook: a schedule name, a list of waits, or a table with the schedule
 * and its settings. Only durable hooks retry: attempts are kept in the journal.
 */
export const retryKey = v.optional(
  v.pipe(
    v.union(
      [
        schedule,
        v.strictObject({
          schedule: v.pipe(
            schedule,
            v.description('A named schedule ("standard-webhooks", "exponential") or the waits before each retry.'),
          ),
          jitter: v.optional(
            v.pipe(
              v.boolean('must be true or false'),
              v.description(
                'Spread each wait by ±20% (default true), so retries of many messages do not arrive at once.',
              ),
            ),
          ),
          deadline: v.optional(
            durationSchema(
              "Give up once the next attempt would start this long after the first (default: the schedule's total plus a quarter, plus a minute).",
            ),
          ),
          attempt_timeout: v.optional(
            durationSchema(
              'How long one attempt may take before it counts as failed and is retried (default 15s; below timeout_ms).',
            ),
          ),
        }),
      ],
      `must be ${scheduleNames.map((name) => `"${name}"`).join(' or ')}, a list of durations such as ["5s", "5m", "1h"], or a table with \`schedule\` and optionally \`jitter\`, \`deadline\`, \`attempt_timeout\``,
    ),
    v.description(
      'Retry a durable hook\'s failed deliveries (network errors, timeouts, 408, 429, 5xx; never other 4xx; 410 Gone disables the URL): "standard-webhooks", "exponential", a list of waits, or a table { schedule, jitter, deadline, attempt_timeout }.',
    ),
  ),
);
