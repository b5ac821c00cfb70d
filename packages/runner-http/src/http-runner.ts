import { defineRunner, type Runner } from '@hookline/core/plugin';
import { createAgentPool } from './agent-pool.ts';
import { checkHttpHook } from './check-http-hook.ts';
import { httpsUnlessTlsOff } from './https-unless-tls-off.ts';
import { deliverHttpHook } from './deliver-http-hook.ts';
import { httpOptions } from './http-keys.ts';
import { createHookPlanner } from './hook-planner.ts';
import { resolveHttpRunnerSettings, type HttpRunnerSettings } from './http-runner-settings.ts';
import { EndpointHealth } from './endpoint-health.ts';
import { deliveryVerdict } from './delivery-verdict.ts';
import type { PreparedHook } from './hook-planner.ts';

/** The package name, as errors name the runner. */
export const HTTP_RUNNER_NAME = '@hookline/runner-http';

/**
 * The runner for `type = "http"` hooks: POSTs the event context as JSON and reads a
 * decision from a 2xx answer. Construction does no I/O; connection pools open on the first hook and
 * close with the engine.
 *
 * ```ts
 * const runners = [httpRunner()];
 * const engine = createHookEngine({ config: loadConfig(sources, { runners }), runners });
 * ```
 */
export function httpRunner(settings: HttpRunnerSettings = {}): Runner {
  const resolved = resolveHttpRunnerSettings(settings);
  const pool = createAgentPool(resolved);
  // One health record per URL for the runner's life: limits and the circuit are per process.
  const endpoints = new Map<string, EndpointHealth>();
  const endpointFor = (plan: PreparedHook): EndpointHealth => {
    let health = endpoints.get(plan.url);
    if (health === undefined) endpoints.set(plan.url, (health = new EndpointHealth(plan.url, plan.limits, Date.now())));
    else health.limits = plan.limits;
    return health;
  };
  const delivery = {
    endpointFor,
    pool,
    settings: resolved,
    // Every delivery starts from these; a hook's own Content-Type or User-Agent replaces them.
    planFor: createHookPlanner({ 'content-type': 'application/json', 'user-agent': resolved.userAgent }),
    environment: process.env,
  };
  return defineRunner({
    name: HTTP_RUNNER_NAME,
    types: {
      http: {
        options: httpOptions,
        defaultTimeoutMs: 60_000,
        // HTTP hooks fail open; a hook can choose on_error = "block".
        defaultOnError: 'proceed',
        usesSandbox: false,
        identity: (options) => String(options.url),
        rules: [httpsUnlessTlsOff],
        check: checkHttpHook,
        doRun(hook, call) {
          return deliverHttpHook(hook, call, delivery);
        },
        // The hook's deadline ended a retried delivery before its attempt timer did (a stalled process): retried as a timeout.
        deadlineVerdict(hook, call) {
          const plan = delivery.planFor(hook);
          if (plan.retry === undefined) return undefined;
          return deliveryVerdict(
            plan.retry,
            call,
            {
              kind: 'no-answer',
              error: `${plan.request} got no answer within the hook's timeout_ms (${hook.timeoutMs} ms)`,
            },
            Date.now(),
          );
        },
      },
    },
    doClose() {
      return pool.close();
    },
  });
}
