import type { HttpHookOptions } from './http-keys.ts';
import { parseDuration } from './duration.ts';
import { RETRY_SCHEDULES } from './retry-keys.ts';

/** A hook's `retry` key, resolved. */
export interface RetryPolicy {
  /** The wait before each retry, in ms: `waits.length + 1` attempts in all. */
  readonly waits: readonly number[];
  readonly jitter: boolean;
  /** No attempt starts later than this after the first. */
  readonly deadlineMs: number;
  /** How long one attempt may take. */
  readonly attemptTimeoutMs: number;
}

/** Svix's per-attempt timeout: long enough for a slow receiver, short enough to free the slot. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 15_000;

/** The policy of a hook's `retry` key, or undefined when it has none. Keys were validated at load. */
export function retryPolicyOf(retry: HttpHookOptions['retry']): RetryPolicy | undefined {
  if (retry === undefined) return undefined;
  const table = typeof retry === 'object' && !Array.isArray(retry) ? retry : { schedule: retry };
  const waits =
    typeof table.schedule === 'string'
      ? RETRY_SCHEDULES[table.schedule].map((wait) => parseDuration(wait)!)
      : [...table.schedule];
  const total = waits.reduce((sum, wait) => sum + wait, 0);
  return {
    waits,
    jitter: table.jitter ?? true,
    // Room for jitter (at most +20% per wait), for the attempts themselves and for a worker's backlog.
    deadlineMs: table.deadline ?? Math.ceil(total * 1.25) + 60_000,
    attemptTimeoutMs: table.attempt_timeout ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
  };
}
