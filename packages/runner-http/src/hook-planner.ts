import type { HookDefinition } from '@hookline/core/plugin';
import { displayUrl } from './display-url.ts';
import { findEnvReferences } from './env-references.ts';
import type { HttpHookOptions, TlsMode } from './http-keys.ts';
import { retryPolicyOf, type RetryPolicy } from './retry-policy.ts';
import type { EndpointLimits } from './endpoint-health.ts';
import { endpointLimitsOf } from './endpoint-limits.ts';

/** What stays the same across deliveries of one hook, worked out once. */
export interface PreparedHook {
  readonly origin: string;
  readonly path: string;
  /** `POST https://host/path`, as messages show it. */
  readonly request: string;
  readonly tls: TlsMode;
  readonly blockPrivateAddresses: boolean;
  readonly allowedEnvVars: readonly string[];
  /** Header templates that reference environment variables, interpolated per delivery; absent when none do. */
  readonly dynamicHeaders?: Readonly<Record<string, string>>;
  /** Headers without references, names lower-cased (so a hook's `Content-Type` replaces the default). */
  readonly staticHeaders: Readonly<Record<string, string>>;
  readonly signingSecretEnv?: string;
  /** The hook's `retry` policy, when it has one. */
  readonly retry?: RetryPolicy;
  /** The limits its retried deliveries respect (the `endpoint` table, defaults filled in). */
  readonly limits: EndpointLimits;
  /** The URL as written: the hook's target, as the engine names it (its identity) in attempts and disabled endpoints. */
  readonly url: string;
}

/** Returns a hook's delivery plan, worked out on its first delivery and remembered after. */
export type HookPlanner = (hook: HookDefinition<HttpHookOptions>) => PreparedHook;

/**
 * A planner for one runner (its default headers are part of every plan). Plans are keyed by the
 * loaded options object, which lives as long as the config, so they go when the config goes.
 */
export function createHookPlanner(defaults: Readonly<Record<string, string>>): HookPlanner {
  const plans = new WeakMap<object, PreparedHook>();
  return (hook) => {
    let plan = plans.get(hook.options);
    if (plan === undefined) {
      // The options were validated at load, so the URL parses.
      plan = planDelivery(hook.options, defaults);
      plans.set(hook.options, plan);
    }
    return plan;
  };
}

function planDelivery(options: HttpHookOptions, defaults: Readonly<Record<string, string>>): PreparedHook {
  const url = new URL(options.url);
  const retry = retryPolicyOf(options.retry);
  const staticHeaders: Record<string, string> = { ...defaults };
  const dynamicHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (findEnvReferences(value).length > 0) {
      dynamicHeaders[name] = value;
      delete staticHeaders[name.toLowerCase()];
    } else {
      staticHeaders[name.toLowerCase()] = value;
    }
  }
  return {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    request: `POST ${displayUrl(url)}`,
    tls: options.tls ?? 'verify',
    blockPrivateAddresses: options.block_private_addresses === true,
    allowedEnvVars: options.allowed_env_vars ?? [],
    ...(Object.keys(dynamicHeaders).length === 0 ? {} : { dynamicHeaders }),
    staticHeaders,
    ...(options.signing_secret_env === undefined ? {} : { signingSecretEnv: options.signing_secret_env }),
    ...(retry === undefined ? {} : { retry }),
    limits: endpointLimitsOf(options.endpoint),
    url: options.url,
  };
}
