// Retried deliveries of durable HTTP hooks: a real server on 127.0.0.1, the real engine and a
// journal, and the verdict rules on their own.
import { createHookEngine, type HookEngine } from '@hookline/core';
import { memoryJournal, type MemoryJournal } from '@hookline/core/testing';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { CONTEXT, load, loadError } from '../test-support/hooks.ts';
import { startHttpServer, type ReceivedRequest, type TestServer } from '../test-support/servers.ts';
import { verifyWebhook } from '../test-support/verify-webhook.ts';
import { deliveryVerdict, parseRetryAfter } from './delivery-verdict.ts';
import { httpRunner } from './http-runner.ts';
import { retryPolicyOf } from './retry-policy.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
process.env['RETRY_TEST_SECRET'] = SECRET;

describe('deliveryVerdict', () => {
  const policy = retryPolicyOf({ schedule: [1_000, 60_000], jitter: false, deadline: 120_000 })!;
  const first = { messageKey: 'k', attempt: 1, firstAttemptAt: 0 };
  test.each([
    [503, 'retry'],
    [500, 'retry'],
    [408, 'retry'],
    [429, 'retry'],
    [400, 'dead'],
    [404, 'dead'],
    [422, 'dead'],
  ])('status %i: %s', (status, next) => {
    expect(deliveryVerdict(policy, first, { kind: 'status', status, error: `answered ${status}` }, 0).next).toBe(next);
  });
  test('410 gives up and disables the URL; a network error retries on the schedule; the schedule and the deadline end it', () => {
    expect(deliveryVerdict(policy, first, { kind: 'status', status: 410, error: 'answered 410' }, 0)).toMatchObject({
      next: 'dead',
      disable: true,
    });
    expect(deliveryVerdict(policy, first, { kind: 'no-answer', error: 'refused' }, 0)).toMatchObject({
      next: 'retry',
      afterMs: 1_000,
      counted: true,
    });
    expect(
      deliveryVerdict(policy, { ...first, attempt: 2 }, { kind: 'no-answer', error: 'refused' }, 1_000),
    ).toMatchObject({ next: 'retry', afterMs: 60_000 });
    expect(
      deliveryVerdict(policy, { ...first, attempt: 3 }, { kind: 'no-answer', error: 'refused' }, 61_000),
    ).toMatchObject({ next: 'dead', reason: expect.stringContaining('gave up after 3 attempts') });
    expect(
      deliveryVerdict(policy, { ...first, attempt: 2 }, { kind: 'no-answer', error: 'refused' }, 70_000),
    ).toMatchObject({ next: 'dead', reason: expect.stringContaining('retry deadline') });
    expect(deliveryVerdict(policy, first, { kind: 'final', error: 'redirect' }, 0).next).toBe('dead');
  });
  test('Retry-After stretches a wait within the deadline, and past it gives up', () => {
    expect(
      deliveryVerdict(policy, first, { kind: 'status', status: 429, retryAfterMs: 30_000, error: '429' }, 0),
    ).toMatchObject({ next: 'retry', afterMs: 30_000 });
    expect(
      deliveryVerdict(policy, first, { kind: 'status', status: 429, retryAfterMs: 500, error: '429' }, 0),
    ).toMatchObject({ next: 'retry', afterMs: 1_000 });
    expect(
      deliveryVerdict(policy, first, { kind: 'status', status: 503, retryAfterMs: 500_000, error: '503' }, 0),
    ).toMatchObject({ next: 'dead', reason: expect.stringContaining('Retry-After asks for 500 s') });
    expect(parseRetryAfter('7', 0)).toBe(7_000);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
  test('jitter spreads a wait by at most a fifth either way', () => {
    const jittered = retryPolicyOf({ schedule: [10_000], deadline: 100_000 })!;
    const waits = [0, 0.5, 0.999].map((random) =>
      deliveryVerdict(jittered, first, { kind: 'no-answer', error: 'x' }, 0, () => random),
    );
    expect(waits.map((verdict) => (verdict.next === 'retry' ? verdict.afterMs : -1))).toEqual([8_000, 10_000, 11_996]);
  });
  test('named schedules and defaults', () => {
    expect(retryPolicyOf('standard-webhooks')).toEqual({
      waits: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      jitter: true,
      deadlineMs: 124_191_250,
      attemptTimeoutMs: 15_000,
    });
    expect(retryPolicyOf('exponential')?.waits).toHaveLength(10);
  });
});

test('retry keys are validated at load, with what to write instead', () => {
  const hook = (retry: string) =>
    `[[hooks]]\nevent = "stage_complete"\ntype = "http"\nurl = "https://example.com/hook"\ndurable = true\nretry = ${retry}\n`;
  expect(() => load(hook('"standard-webhooks"'))).not.toThrow();
  expect(() => load(hook('["5s", "1m", "2h"]'))).not.toThrow();
  expect(() =>
    load(hook('{ schedule = "exponential", jitter = false, deadline = "1d", attempt_timeout = "10s" }')),
  ).not.toThrow();
  expect(loadError(hook('"svixx"')).message).toContain('"standard-webhooks" or "exponential", a list of durations');
  expect(loadError(hook('["5 seconds"]')).message).toContain('duration');
  expect(loadError(hook('{ schedule = "exponential", jiter = false }')).message).toContain(
    'or a table with `schedule` and optionally `jitter`, `deadline`, `attempt_timeout`',
  );
});

test("a delivery the engine's deadline ended (a stalled process) is retried as a timeout; a hook without retry is done", () => {
  const runner = httpRunner();
  const config = load(
    `[[hooks]]\nname = "a"\nevent = "stage_complete"\ntype = "http"\nurl = "https://example.com/a"\ndurable = true\nretry = ["5s"]\n[[hooks]]\nname = "b"\nevent = "stage_complete"\ntype = "http"\nurl = "https://example.com/b"\ndurable = true\n`,
    runner,
  );
  const [withRetry, without] = config.hooks;
  const delivery = { messageKey: 'k', attempt: 1, firstAttemptAt: Date.now() };
  expect(runner.types['http']!.deadlineVerdict?.(withRetry!, delivery)).toMatchObject({
    next: 'retry',
    counted: true,
    reason: expect.stringContaining("got no answer within the hook's timeout_ms (60000 ms)"),
  });
  expect(runner.types['http']!.deadlineVerdict?.(without!, delivery)).toBeUndefined();
});

describe('retried deliveries through the engine and a journal', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  // A server that answers the n-th request with the n-th of `answers` (then 204), and a durable hook posting to it.
  async function setup(
    answers: Array<(response: ServerResponse) => void>,
    retry = '{ schedule = ["30ms", "30ms", "30ms"], jitter = false }',
  ): Promise<{ server: TestServer; engine: HookEngine; journal: MemoryJournal; settle: () => Promise<void> }> {
    let served = 0;
    const server = await startHttpServer((_request: ReceivedRequest, response) => {
      const answer = answers[served++];
      if (answer === undefined) response.writeHead(204).end();
      else answer(response);
    });
    const runner = httpRunner();
    const config = load(
      `[[hooks]]\nname = "notify"\nevent = "stage_complete"\ntype = "http"\nurl = "${server.origin}/hook"\ntls = "off"\ndurable = true\nsigning_secret_env = "RETRY_TEST_SECRET"\ntimeout_ms = 2000\nretry = ${retry}\n`,
      runner,
    );
    const journal = memoryJournal();
    const engine = createHookEngine({ config, runners: [runner], journal, journalKey: false });
    cleanups.push(
      () => server.close(),
      () => engine.close(),
    );
    // Resumes until nothing is pending: each retry waits out its schedule.
    const settle = async (): Promise<void> => {
      for (let round = 0; round < 50 && journal.entries.some((entry) => entry.deadLetteredAt === undefined); round++) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        await engine.resume();
      }
    };
    return { server, engine, journal, settle };
  }
  const status =
    (code: number, headers: Record<string, string> = {}) =>
    (response: ServerResponse) =>
      response.writeHead(code, headers).end(`status ${code}`);

  test('5xx and 429 are retried until delivered; every attempt carries the same webhook-id and a valid signature; emit does not wait for retries', async () => {
    const { server, engine, journal, settle } = await setup([
      status(503),
      status(429, { 'retry-after': '0' }),
      status(500),
    ]);
    const outcome = await (await engine.emit('stage_complete', CONTEXT)).settled;
    expect(outcome.hooks[0]).toMatchObject({
      status: 'failed',
      http_status: 503,
      delivery: { next: 'retry', afterMs: 30, counted: true },
    });
    expect(server.requests).toHaveLength(1);
    expect(journal.entries[0]?.deliveries?.[0]).toMatchObject({
      hook: 'notify',
      outcome: 'retry',
      httpStatus: 503,
      target: `${server.origin}/hook`,
      error: expect.stringContaining('status 503'),
    });
    await settle();
    expect(journal.entries).toEqual([]);
    expect(server.requests).toHaveLength(4);
    const ids = new Set(server.requests.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^msg_[0-9a-f]{32}$/);
    for (const request of server.requests) expect(verifyWebhook(SECRET, request.headers, request.body)).toBe(true);
  });

  test('a 4xx is not retried: the entry is dead-lettered at once with the attempt; the schedule used up dead-letters with every attempt', async () => {
    const rejected = await setup([status(422)]);
    await (
      await rejected.engine.emit('stage_complete', CONTEXT)
    ).settled;
    expect(rejected.server.requests).toHaveLength(1);
    expect(rejected.journal.entries[0]).toMatchObject({
      deadLetteredAt: expect.any(Number),
      lastError: expect.stringContaining('not retried'),
      deliveries: [expect.objectContaining({ outcome: 'dead', httpStatus: 422 })],
    });

    const failing = await setup([status(502), status(502), status(502), status(502)]);
    await (
      await failing.engine.emit('stage_complete', CONTEXT)
    ).settled;
    await failing.settle();
    expect(failing.server.requests).toHaveLength(4);
    const [dead] = failing.journal.entries;
    expect(dead?.deadLetteredAt).toBeDefined();
    expect(dead?.deliveries?.map((attempt) => attempt.outcome)).toEqual(['retry', 'retry', 'retry', 'dead']);
    expect(dead?.lastError).toContain('the retry schedule is used up');
  });

  test('410 Gone disables the URL: later messages to it are dead-lettered without a request until it is re-enabled', async () => {
    const { server, engine, journal } = await setup([status(410)]);
    await (
      await engine.emit('stage_complete', CONTEXT)
    ).settled;
    expect((await journal.disabledTargets?.())?.map((target) => target.target)).toEqual([`${server.origin}/hook`]);
    const later = await (await engine.emit('stage_complete', { ...CONTEXT, run_id: 'run-2' })).settled;
    expect(later.hooks[0]).toMatchObject({
      status: 'skipped',
      skipped_because: expect.stringContaining('is disabled since'),
    });
    expect(server.requests).toHaveLength(1);
    expect(journal.entries.every((entry) => entry.deadLetteredAt !== undefined)).toBe(true);
  });

  test('an attempt that gets no answer within attempt_timeout is retried', async () => {
    const { server, engine, journal, settle } = await setup(
      [() => undefined],
      '{ schedule = ["30ms"], jitter = false, attempt_timeout = "200ms" }',
    );
    const outcome = await (await engine.emit('stage_complete', CONTEXT)).settled;
    expect(outcome.hooks[0]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('within the attempt timeout of 200 ms'),
      delivery: { next: 'retry' },
    });
    await settle();
    expect(journal.entries).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  test('retry on a hook that is not durable is tried once, with a warning that says why', async () => {
    const server = await startHttpServer((_request, response) => response.writeHead(503).end());
    const runner = httpRunner();
    const config = load(
      `[[hooks]]\nevent = "stage_complete"\ntype = "http"\nurl = "${server.origin}/hook"\ntls = "off"\nretry = "exponential"\n`,
      runner,
    );
    const engine = createHookEngine({ config, runners: [runner] });
    cleanups.push(
      () => server.close(),
      () => engine.close(),
    );
    const outcome = await (await engine.emit('stage_complete', CONTEXT)).settled;
    expect(outcome.hooks[0]?.warnings).toEqual([
      expect.stringContaining('only durable hooks (durable = true, with a journal) are retried'),
    ]);
    expect(server.requests).toHaveLength(1);
  });
});
