import type { HookDefinition, RunCall, RunResult } from '@hookline/core/plugin';
import { messageOf } from '@hookline/core/plugin';
import type { HttpHookOptions } from './http-keys.ts';
import type { AgentPool } from './agent-pool.ts';
import { describeRequestError } from './describe-request-error.ts';
import type { ResolvedHttpRunnerSettings } from './http-runner-settings.ts';
import { interpolateHeaders } from './interpolate-headers.ts';
import { interpretResponse } from './interpret-response.ts';
import type { HookPlanner } from './hook-planner.ts';
import { sendRequest } from './send-request.ts';
import { newWebhookId, signWebhook } from './sign-webhook.ts';
import { readWebhookSecret } from './webhook-secret.ts';

/** What one delivery needs from its runner. */
export interface DeliveryScope {
  readonly pool: AgentPool;
  readonly settings: ResolvedHttpRunnerSettings;
  readonly planFor: HookPlanner;
  /** Read by name only, at run time (never enumerated). */
  readonly environment: Readonly<Record<string, string | undefined>>;
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
export async function deliverHttpHook(hook: HookDefinition<HttpHookOptions>, call: RunCall, scope: DeliveryScope): Promise<RunResult> {
  const plan = scope.planFor(hook);
  // The plan's headers are sent as they are unless this delivery adds some (undici only reads them).
  const ownHeaders = plan.dynamicHeaders !== undefined || call.traceContext !== undefined || plan.signingSecretEnv !== undefined;
  const headers: Record<string, string> = ownHeaders ? { ...plan.staticHeaders } : (plan.staticHeaders as Record<string, string>);
  let warnings = NO_WARNINGS;
  let secrets: readonly string[] = NO_SECRETS;
  if (plan.dynamicHeaders !== undefined) {
    const interpolated = interpolateHeaders(plan.dynamicHeaders, plan.allowedEnvVars, scope.environment);
    if (!interpolated.ok) return { status: 'failed', error: interpolated.error };
    for (const [name, value] of Object.entries(interpolated.headers)) headers[name.toLowerCase()] = value;
    warnings = interpolated.warnings;
    secrets = [...interpolated.secrets];
  }

  // The hook's trace context (`traceparent`), unless the config sets that header itself.
  if (call.traceContext !== undefined) {
    for (const [name, value] of Object.entries(call.traceContext)) headers[name] ??= value;
  }

  const body = Buffer.from(call.contextJson, 'utf8');
  let details: Record<string, unknown> = NO_DETAILS;
  if (plan.signingSecretEnv !== undefined) {
    const secretValue = scope.environment[plan.signingSecretEnv];
    const secret = readWebhookSecret(plan.signingSecretEnv, secretValue);
    if (!secret.ok) return { status: 'failed', error: `cannot sign the delivery: ${secret.problem}`, warnings };
    secrets = [...secrets, secretValue!];
    const id = newWebhookId();
    Object.assign(headers, signWebhook({ key: secret.key, id, timestamp: Math.floor(Date.now() / 1000), body }));
    details = { webhook_id: id };
  }

  try {
    const answer = await sendRequest(scope.pool.agentFor(plan.tls, plan.blockPrivateAddresses), {
      origin: plan.origin,
      path: plan.path,
      headers,
      body,
      signal: call.signal,
      maxResponseBytes: scope.settings.maxResponseBytes,
      // Only so undici's 300 s defaults cannot cut a longer timeout_ms short; the signal ends hooks.
      idleTimeoutMs: call.timeoutMs + 1_000,
    });
    return interpretResponse(answer, { request: plan.request, maxResponseBytes: scope.settings.maxResponseBytes, secrets, details, warnings, preset: call.preset, event: call.context.event });
  } catch (error) {
    if (call.signal.aborted) {
      const reason: unknown = call.signal.reason;
      return { status: 'failed', error: `${plan.request} was abandoned: ${messageOf(reason)}`, warnings, details };
    }
    return { status: 'failed', error: describeRequestError(error, { request: plan.request, secrets }), warnings, details };
  }
}
