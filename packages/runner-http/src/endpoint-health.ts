import { AttemptWindow } from './attempt-window.ts';

/** What an endpoint's limits are, resolved. */
export interface EndpointLimits {
  readonly maxInFlight: number;
  /** Tokens per ms; undefined: no rate limit. */
  readonly ratePerMs?: number;
  readonly burst: number;
  /** Undefined: no circuit breaker. */
  readonly breaker?: {
    readonly failureRatio: number;
    readonly minRequests: number;
    readonly windowMs: number;
    readonly probeAfterMs: number;
  };
}

/** May a delivery go now? If not, when to come back, and why. */
export type Admission =
  | { readonly ok: true; readonly done: (failed: boolean) => void }
  | { readonly ok: false; readonly afterMs: number; readonly reason: string };

// A deferral for a URL at max_in_flight waits about this long, jittered, so that deferred deliveries do
// not return together and a backlog for a slow URL does not churn through the journal ahead of others.
const BUSY_RETRY_MS = 500;

/**
 * The health of one URL as this process sees it: deliveries in flight, a token bucket, and a circuit
 * breaker over the recent attempts (closed → open after too many failures → half-open, one probe →
 * closed on its success, open again on its failure). Nothing here waits: a delivery that may not go
 * is told when to come back.
 */
export class EndpointHealth {
  readonly #url: string;
  #limits: EndpointLimits;
  #inFlight = 0;
  #tokens: number;
  #refilledAt: number;
  // Recent attempts, bounded whatever the traffic: the ratio of the latest attempts is what matters.
  readonly #recent = new AttemptWindow(1_000);
  #openUntil: number | undefined;
  #probing = false;

  constructor(url: string, limits: EndpointLimits, now: number) {
    this.#url = url;
    this.#limits = limits;
    this.#tokens = limits.burst;
    this.#refilledAt = now;
  }

  /** The limits of the hook config in force (a reloaded config may change them). */
  set limits(limits: EndpointLimits) {
    this.#limits = limits;
  }

  /** Whether the circuit is open now (for tests and reports). */
  isOpen(now: number): boolean {
    return this.#openUntil !== undefined && (now < this.#openUntil || this.#probing);
  }

  admit(now: number, random: () => number = Math.random): Admission {
    const limits = this.#limits;
    let probe = false;
    if (this.#openUntil !== undefined) {
      if (now < this.#openUntil || this.#probing) {
        const afterMs =
          Math.max(1, (this.#probing ? now + (limits.breaker?.probeAfterMs ?? 1_000) : this.#openUntil) - now) +
          Math.round(random() * 250);
        return {
          ok: false,
          afterMs,
          reason: `${this.#url} is failing (circuit open): ${this.#describeWindow(now)}; deferred, one probe goes through every ${Math.round((limits.breaker?.probeAfterMs ?? 0) / 1000)} s`,
        };
      }
      probe = true;
    }
    if (this.#inFlight >= limits.maxInFlight) {
      return {
        ok: false,
        afterMs: Math.round(BUSY_RETRY_MS * (0.5 + random())),
        reason: `${this.#url} has ${this.#inFlight} deliveries in flight from this process (max_in_flight ${limits.maxInFlight}); deferred`,
      };
    }
    if (limits.ratePerMs !== undefined) {
      this.#tokens = Math.min(limits.burst, this.#tokens + (now - this.#refilledAt) * limits.ratePerMs);
      this.#refilledAt = now;
      if (this.#tokens < 1) {
        const afterMs = Math.ceil((1 - this.#tokens) / limits.ratePerMs) + Math.round(random() * 20);
        return { ok: false, afterMs, reason: `${this.#url} is at its rate limit; deferred` };
      }
      this.#tokens -= 1;
    }
    if (probe) this.#probing = true;
    this.#inFlight++;
    let reported = false;
    return {
      ok: true,
      done: (failed) => {
        if (reported) return;
        reported = true;
        this.#inFlight--;
        this.#record(Date.now(), failed, probe);
      },
    };
  }

  #record(now: number, failed: boolean, probe: boolean): void {
    const breaker = this.#limits.breaker;
    if (probe) {
      this.#probing = false;
      if (failed) {
        this.#openUntil = now + (breaker?.probeAfterMs ?? 0);
        return;
      }
      // The probe got through: the endpoint is back, and its old failures no longer count.
      this.#openUntil = undefined;
      this.#recent.clear();
    }
    if (breaker === undefined) return;
    this.#recent.push(now, failed);
    this.#trim(now);
    if (this.#openUntil !== undefined) return;
    const { failures, size } = this.#recent;
    if (size >= breaker.minRequests && failures / size >= breaker.failureRatio)
      this.#openUntil = now + breaker.probeAfterMs;
  }

  #trim(now: number): void {
    this.#recent.dropBefore(now - (this.#limits.breaker?.windowMs ?? 0));
  }

  #describeWindow(now: number): string {
    this.#trim(now);
    return `${this.#recent.failures} of its last ${this.#recent.size} attempts failed`;
  }
}
