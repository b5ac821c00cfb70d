import type { EndpointLimits } from './endpoint-health.ts';
import type { HttpHookOptions } from './http-keys.ts';
import { parseDuration } from './duration.ts';
import { parseRate } from './endpoint-keys.ts';

/** Deliveries in flight to one URL from one process unless `max_in_flight` says otherwise. */
export const DEFAULT_MAX_IN_FLIGHT = 16;

/** Convoy's defaults: open at 70% failures of at least 10 attempts in 5 minutes; a probe every 30 s. */
const DEFAULT_BREAKER = {
  failureRatio: 0.7,
  minRequests: 10,
  windowMs: parseDuration('5m')!,
  probeAfterMs: parseDuration('30s')!,
};

/** A hook's `endpoint` table, resolved with its defaults. */
export function endpointLimitsOf(endpoint: HttpHookOptions['endpoint']): EndpointLimits {
  const ratePerMs = endpoint?.rate === undefined ? undefined : parseRate(endpoint.rate);
  const breaker = endpoint?.circuit_breaker;
  return {
    maxInFlight: endpoint?.max_in_flight ?? DEFAULT_MAX_IN_FLIGHT,
    ...(ratePerMs === undefined ? {} : { ratePerMs }),
    burst: endpoint?.burst ?? Math.max(1, Math.ceil((ratePerMs ?? 0) * 1_000)),
    ...(breaker === false
      ? {}
      : {
          breaker:
            breaker === undefined || breaker === true
              ? DEFAULT_BREAKER
              : {
                  failureRatio: breaker.failure_ratio ?? DEFAULT_BREAKER.failureRatio,
                  minRequests: breaker.min_requests ?? DEFAULT_BREAKER.minRequests,
                  windowMs: breaker.window ?? DEFAULT_BREAKER.windowMs,
                  probeAfterMs: breaker.probe_after ?? DEFAULT_BREAKER.probeAfterMs,
                },
        }),
  };
}
