// Endpoint health: the limits and circuit breaker on their own (with a clock the test moves), and
// through the engine: a dead endpoint costs a bounded number of requests and never holds up a healthy one.
import { createHookEngine } from '@hookline/core';
import { memoryJournal } from '@hookline/core/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { CONTEXT, load, loadError } from '../test-support/hooks.ts';
import { startHttpServer } from '../test-support/servers.ts';
import { EndpointHealth, type Admission } from './endpoint-health.ts';
import { endpointLimitsOf } from './endpoint-limits.ts';
import { httpRunner } from './http-runner.ts';

const admitted = (admission: Admission): Extract<Admission, { ok: true }> => {
  if (!admission.ok) throw new Error(`deferred: ${admission.reason}`);
  return admission;
};

describe('EndpointHealth', () => {
  test('the circuit opens at the failure ratio, lets one probe through after probe_after, and closes when it succeeds', () => {
    const limits = endpointLimitsOf({
      circuit_breaker: { failure_ratio: 0.5, min_requests: 4, window: 60_000, probe_after: 1_000 },
    });
    const health = new EndpointHealth('https://a.test/hook', limits, 0);
    const realNow = Date.now;
    let now = 0;
    Date.now = () => now;
    try {
      for (const failed of [false, true, false]) admitted(health.admit(now)).done(failed);
      expect(health.isOpen(now)).toBe(false);
      admitted(health.admit(now)).done(true); // 2 of 4 failed: open
      expect(health.isOpen(now)).toBe(true);
      const deferred = health.admit(now, () => 0);
      expect(deferred).toMatchObject({
        ok: false,
        afterMs: 1_000,
        reason: expect.stringContaining('circuit open): 2 of its last 4 attempts failed'),
      });
      now = 1_000;
      const probe = admitted(health.admit(now));
      expect(health.admit(now).ok).toBe(false); // one probe at a time
      probe.done(true); // the probe failed: open for another second
      expect(health.admit(now).ok).toBe(false);
      now = 2_000;
      admitted(health.admit(now)).done(false);
      expect(health.isOpen(now)).toBe(false);
      admitted(health.admit(now)).done(true); // the old failures no longer count
      expect(health.isOpen(now)).toBe(false);
    } finally {
      Date.now = realNow;
    }
  });

  test('a token bucket of rate and burst, and max_in_flight, defer with the time to come back', () => {
    const health = new EndpointHealth(
      'https://a.test/hook',
      endpointLimitsOf({ rate: '10/s', burst: 2, circuit_breaker: false }),
      0,
    );
    admitted(health.admit(0)).done(false);
    admitted(health.admit(0)).done(false);
    expect(health.admit(0, () => 0)).toMatchObject({
      ok: false,
      afterMs: 100,
      reason: expect.stringContaining('rate limit'),
    });
    admitted(health.admit(100)).done(false);

    const busy = new EndpointHealth('https://b.test/hook', endpointLimitsOf({ max_in_flight: 2 }), 0);
    const first = admitted(busy.admit(0));
    admitted(busy.admit(0));
    expect(busy.admit(0)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('2 deliveries in flight from this process (max_in_flight 2)'),
    });
    first.done(false);
    expect(busy.admit(0).ok).toBe(true);
  });

  test('endpoint keys are validated at load', () => {
    const hook = (endpoint: string) =>
      `[[hooks]]\nevent = "stage_complete"\ntype = "http"\nurl = "https://example.com/hook"\ndurable = true\nretry = "exponential"\nendpoint = ${endpoint}\n`;
    expect(() =>
      load(
        hook(
          '{ max_in_flight = 4, rate = "5000/min", burst = 50, circuit_breaker = { failure_ratio = 0.7, min_requests = 10, window = "5m", probe_after = "30s" } }',
        ),
      ),
    ).not.toThrow();
    expect(loadError(hook('{ rate = "lots" }')).message).toContain('must be a rate such as "5000/min"');
    expect(loadError(hook('{ max_inflight = 4 }')).message).toContain(
      'must be a table with max_in_flight, rate, burst, circuit_breaker',
    );
  });
});

describe('through the engine', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  test('an endpoint that never answers opens its circuit and costs a bounded number of requests, while a healthy one gets every message', async () => {
    const dead = await startHttpServer(() => undefined); // never answers
    const healthy = await startHttpServer((_request, response) => response.writeHead(204).end());
    const runner = httpRunner();
    const hook = (name: string, origin: string) =>
      `[[hooks]]\nname = "${name}"\nevent = "stage_complete"\ntype = "http"\nurl = "${origin}/hook"\ntls = "off"\ndurable = true\nretry = { schedule = ["50ms", "50ms", "50ms", "50ms", "50ms"], jitter = false, attempt_timeout = "300ms" }\nendpoint = { max_in_flight = 2, circuit_breaker = { min_requests = 2, failure_ratio = 0.5, probe_after = "10s" } }\n`;
    // Two events, one hook each: a message to each endpoint is its own journal entry.
    const config = load(
      hook('to-dead', dead.origin).replace('stage_complete', 'run_complete') + hook('to-healthy', healthy.origin),
      runner,
    );
    const journal = memoryJournal();
    const engine = createHookEngine({ config, runners: [runner], journal, journalKey: false, durableHooks: 'record' });
    cleanups.push(
      () => dead.close(),
      () => healthy.close(),
      () => engine.close(),
    );
    for (let message = 0; message < 20; message++) {
      await engine.emit('run_complete', { ...CONTEXT, run_id: `dead-${message}` });
      await engine.emit('stage_complete', { ...CONTEXT, run_id: `healthy-${message}` });
    }
    // A worker: 4 at once, resuming until every message to the healthy endpoint is delivered.
    const stop = new AbortController();
    const working = engine.resume({ signal: stop.signal, concurrency: 4, pollMs: 20 });
    const circuitOpen = () => journal.entries.some((entry) => (entry.lastError ?? '').includes('circuit open'));
    while (healthy.requests.length < 20 || !circuitOpen()) await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await working;
    expect(healthy.requests).toHaveLength(20);
    // Two attempts timed out and opened the circuit (at most max_in_flight at a time); the rest were deferred.
    expect(dead.requests.length).toBeLessThanOrEqual(4);
    expect(journal.entries.filter((entry) => entry.event === 'run_complete')).toHaveLength(20);
    expect(journal.entries.filter((entry) => entry.event === 'stage_complete')).toHaveLength(0);
    const lastErrors = journal.entries.map((entry) => entry.lastError ?? '');
    expect(lastErrors.some((error) => error.includes('circuit open'))).toBe(true);
  });
});
