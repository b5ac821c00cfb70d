import type { HookDefinition, RunCall, RunResult } from '@hookline/core/plugin';
import { messageOf } from '@hookline/core/plugin';
import type { HttpHookOptions } from './http-keys.ts';
import type { AgentPool } from './agent-pool.ts';
import { attemptSignal } from './attempt-signal.ts';
import { describeRequestError } from './describe-request-error.ts';
import type { ResolvedHttpRunnerSettings } from './http-runner-settings.ts';
import { interpolateHeaders } from './interpolate-headers.ts';
import { interpretResponse } from './interpret-response.ts';
import type { HookPlanner } from './hook-planner.ts';
import { sendRequest } from './send-request.ts';
import { newWebhookId, signWebhook, stableWebhookId } from './sign-webhook.ts';
import {
  deferralVerdict,
  deliveryVerdict,
  isRetryableStatus,
  parseRetryAfter,
  type AttemptFailure,
} from './delivery-verdict.ts';
import type { EndpointHealth } from './endpoint-health.ts';
import type { PreparedHook } from './hook-planner.ts';
import { PrivateAddressError } from './private-address-error.ts';
import { readWebhookSecret } from './webhook-secret.ts';

/** What one delivery needs from its runner. */
export interface DeliveryScope {
  readonly pool: AgentPool;
  readonly settings: ResolvedHttpRunnerSettings;
  readonly planFor: HookPlanner;
  /** Read by name only, at run time (never enumerated). */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** The health of a hook's URL in this process: in-flight count, token bucket, circuit breaker. */
  readonly endpointFor: (plan: PreparedHook) => EndpointHealth;
}

// Shared by the deliveries that have none; never mutated (a delivery that has some makes its own).
const NO_WARNINGS: readonly string[] = Object.freeze([]);
const NO_SECRETS: readonly string[] = Object.freeze([]);
const NO_DETAILS: Record<string, unknown> = Object.freeze({});

/**
 * Delivers one event to an HTTP hook: builds the headers (interpolation, signing), POSTs the context
 * JSON on the pooled agent for the hook's TLS mode, reads a capped body and turns the answer into a
 * result. Every failure comes back as data, with secrets removed from its text.
 */
export async function deliverHttpHook(
  hook: HookDefinition<HttpHookOptions>,
  call: RunCall,
  scope: DeliveryScope,
): Promise<RunResult> {
  const plan = scope.planFor(hook);
  const policy = call.delivery === undefined ? undefined : plan.retry;
  // The plan's headers are sent as they are unless this delivery adds some (undici only reads them).
  const ownHeaders =
    plan.dynamicHeaders !== undefined || call.traceContext !== undefined || plan.signingSecretEnv !== undefined;
  const headers: Record<string, string> = ownHeaders ? { ...plan.staticHeaders } : plan.staticHeaders;
  let warnings = NO_WARNINGS;
  let secrets: readonly string[] = NO_SECRETS;
  if (plan.dynamicHeaders !== undefined) {
    const interpolated = interpolateHeaders(plan.dynamicHeaders, plan.allowedEnvVars, scope.environment);
    if (!interpolated.ok) {
      const result: RunResult = { status: 'failed', error: interpolated.error };
      return policy === undefined
        ? result
        : {
            ...result,
            delivery: deliveryVerdict(policy, call.delivery!, { kind: 'final', error: result.error }, Date.now()),
          };
    }
    for (const [name, value] of Object.entries(interpolated.headers)) headers[name.toLowerCase()] = value;
    warnings = interpolated.warnings;
    secrets = [...interpolated.secrets];
  }

  // The hook's trace context (`traceparent`), unless the config sets that header itself.
  if (call.traceContext !== undefined) {
    for (const [name, value] of Object.entries(call.traceContext)) headers[name] ??= value;
  }

  const body = Buffer.from(call.contextJson, 'utf8');
  // Which attempt of a retried message this is, for reports and traces.
  let details: Record<string, unknown> =
    call.delivery === undefined ? NO_DETAILS : { delivery_attempt: call.delivery.attempt };
  if (plan.signingSecretEnv !== undefined) {
    const secretValue = scope.environment[plan.signingSecretEnv];
    const secret = readWebhookSecret(plan.signingSecretEnv, secretValue);
    if (!secret.ok) {
      const result: RunResult = { status: 'failed', error: `cannot sign the delivery: ${secret.problem}`, warnings };
      return policy === undefined
        ? result
        : {
            ...result,
            delivery: deliveryVerdict(policy, call.delivery!, { kind: 'final', error: result.error }, Date.now()),
          };
    }
    secrets = [...secrets, secretValue!];
    // One message, one id: every attempt of a retried delivery carries the same webhook-id.
    const id = call.delivery === undefined ? newWebhookId() : stableWebhookId(call.delivery.messageKey, body);
    Object.assign(headers, signWebhook({ key: secret.key, id, timestamp: Math.floor(Date.now() / 1000), body }));
    details = { ...details, webhook_id: id };
  }

  if (plan.retry !== undefined && call.delivery === undefined) {
    warnings = [
      ...warnings,
      'retry is set, but this delivery was tried once: only durable hooks (durable = true, with a journal) are retried, since their attempts are kept in the journal',
    ];
  }
  // A retried delivery's attempt ends before the hook's deadline, so that its failure can be retried.
  const attemptTimeoutMs =
    policy === undefined
      ? undefined
      : Math.max(1, Math.min(policy.attemptTimeoutMs, call.timeoutMs - ATTEMPT_MARGIN_MS));
  // A retried delivery goes only when its URL's limits and circuit let it; otherwise it is deferred, not queued.
  const admission = policy === undefined ? undefined : scope.endpointFor(plan).admit(Date.now());
  if (admission !== undefined && !admission.ok) {
    return {
      status: 'failed',
      error: `${plan.request} was not sent: ${admission.reason}`,
      warnings,
      details,
      delivery: deferralVerdict(policy!, call.delivery!, admission.afterMs, admission.reason, Date.now()),
    };
  }
  const retried = (result: RunResult, failure: AttemptFailure): RunResult => {
    if (policy === undefined) return result;
    // What the circuit breaker counts as the endpoint failing: no answer, or an answer that asks to retry.
    admission?.done(failure.kind === 'no-answer' || (failure.kind === 'status' && isRetryableStatus(failure.status)));
    return { ...result, delivery: deliveryVerdict(policy, call.delivery!, failure, Date.now()) };
  };

  const attempt = attemptTimeoutMs === undefined ? undefined : attemptSignal(call.signal, attemptTimeoutMs);
  const signal = attempt?.signal ?? call.signal;
  try {
    const answer = await sendRequest(scope.pool.agentFor(plan.tls, plan.blockPrivateAddresses), {
      origin: plan.origin,
      path: plan.path,
      headers,
      body,
      signal,
      maxResponseBytes: scope.settings.maxResponseBytes,
      // Only so undici's 300 s defaults cannot cut a longer timeout_ms short; the signal ends hooks.
      idleTimeoutMs: call.timeoutMs + 1_000,
    });
    const result = interpretResponse(answer, {
      request: plan.request,
      maxResponseBytes: scope.settings.maxResponseBytes,
      secrets,
      details,
      warnings,
      preset: call.preset,
      event: call.context.event,
    });
    // A 2xx was received, whatever its body says: the message is delivered.
    if (policy === undefined || (answer.statusCode >= 200 && answer.statusCode < 300) || result.status !== 'failed') {
      admission?.done(false);
      return result;
    }
    if (answer.statusCode >= 300 && answer.statusCode < 400)
      return retried(result, { kind: 'final', error: result.error });
    const retryAfterMs = parseRetryAfter(answer.retryAfter, Date.now());
    return retried(result, {
      kind: 'status',
      status: answer.statusCode,
      error: result.error,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  } catch (error) {
    if (call.signal.aborted) {
      admission?.done(false);
      const reason: unknown = call.signal.reason;
      return { status: 'failed', error: `${plan.request} was abandoned: ${messageOf(reason)}`, warnings, details };
    }
    if (signal.aborted) {
      const result: RunResult = {
        status: 'failed',
        error: `${plan.request} got no answer within the attempt timeout of ${attemptTimeoutMs} ms`,
        warnings,
        details,
      };
      return retried(result, { kind: 'no-answer', error: result.error });
    }
    const result: RunResult = {
      status: 'failed',
      error: describeRequestError(error, { request: plan.request, secrets }),
      warnings,
      details,
    };
    return retried(result, {
      kind:
        PrivateAddressError.isInstance(error) ||
        PrivateAddressError.isInstance((error as { cause?: unknown } | null)?.cause)
          ? 'final'
          : 'no-answer',
      error: result.error,
    });
  } finally {
    attempt?.dispose();
  }
}

// How much sooner than the hook's deadline a retried attempt gives up: the engine's deadline would
// end the hook without a verdict, and the message would not be retried.
const ATTEMPT_MARGIN_MS = 250;
