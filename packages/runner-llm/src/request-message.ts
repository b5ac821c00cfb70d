import { messageOf, sleepUnlessAborted } from '@hookline/core/plugin';
import { redactCredentials } from './credentials.ts';
import { describeRequestError } from './describe-request-error.ts';
import type { MessageRequest, MessagesClient } from './messages-client.ts';
import { readModelReply, type ModelReply } from './model-reply.ts';
import { retryDelayMs } from './retry-delay.ts';

/**
 * The hook's signal ends a request at the deadline; the SDK's own per-request timeout is only a
 * backstop set a little later, so that the engine's deadline (reported `timed_out`) always wins the
 * race rather than a `failed` "request timed out" a millisecond earlier.
 */
const TIMEOUT_BACKSTOP_MS = 250;

/** What one request needs to know about the hook it belongs to. */
export interface RequestScope {
  readonly client: MessagesClient;
  /** The hook's signal: aborted at its deadline or when the engine closes. */
  readonly signal: AbortSignal;
  /** `performance.now()` value of the hook's deadline. */
  readonly deadline: number;
  /** Retries allowed per request, each only if it can start before the deadline. */
  readonly maxRetries: number;
  /** Counts retries across the hook's requests, for the report. */
  readonly onRetry: () => void;
}

/** A reply, or why there is none (already a report-ready sentence). */
export type RequestOutcome =
  { readonly ok: true; readonly reply: ModelReply } | { readonly ok: false; readonly error: string };

/**
 * Sends one Messages API request and retries it within the hook's deadline. The SDK's own retries
 * are off (`maxRetries: 0`) because it cannot know the deadline: it would sleep through a long
 * `retry-after` only to be aborted. Here each attempt gets the hook's signal, so the deadline aborts
 * the request in flight, and the time left (plus a small backstop) as its timeout; a retry whose
 * wait would end past the deadline is not attempted — the hook fails at once with the reason.
 */
export async function requestMessage(body: MessageRequest, scope: RequestScope): Promise<RequestOutcome> {
  for (let retries = 0; ; retries++) {
    const remaining = Math.floor(scope.deadline - performance.now());
    if (scope.signal.aborted || remaining < 1) return { ok: false, error: abortText(scope.signal) };
    let value: unknown;
    try {
      value = await scope.client.messages.create(body, {
        signal: scope.signal,
        timeout: remaining + TIMEOUT_BACKSTOP_MS,
        maxRetries: 0,
      });
    } catch (error) {
      if (scope.signal.aborted) return { ok: false, error: abortText(scope.signal) };
      const described = redactCredentials(describeRequestError(error), scope.client);
      const delay = retries < scope.maxRetries ? retryDelayMs(error, retries) : undefined;
      if (delay === undefined)
        return {
          ok: false,
          error: retries === 0 ? described : `${described} (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`,
        };
      const left = scope.deadline - performance.now();
      if (delay >= left) {
        return {
          ok: false,
          error: `${described}; not retried: the retry was due in ${seconds(delay)}, after the hook's deadline (${seconds(Math.max(0, left))} left)`,
        };
      }
      scope.onRetry();
      await sleepUnlessAborted(delay, scope.signal);
      continue;
    }
    const read = readModelReply(value);
    return read.ok ? read : { ok: false, error: redactCredentials(read.error, scope.client) };
  }
}

function abortText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (!signal.aborted) return "the hook's deadline passed";
  return messageOf(reason);
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1_000).toFixed(1)} s`;
}
