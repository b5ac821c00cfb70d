// Bounded load against a real server: big bodies, connection reuse, many concurrent deliveries.
import { createHookEngine } from '@hookline/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { httpRunner } from './http-runner.ts';
import { startHttpServer, type TestServer } from '../test-support/servers.ts';
import { CONTEXT, emitOnce, httpHook, load } from '../test-support/hooks.ts';

const FIVE_MB = 5 * 1024 * 1024;
let server: TestServer;
let bigBodyFullyWritten = 0;

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    if (request.path === '/huge-html' || request.path === '/huge-json') {
      response.writeHead(200, { 'content-type': request.path === '/huge-html' ? 'text/html' : 'application/json' });
      const piece = Buffer.alloc(64 * 1024, request.path === '/huge-html' ? 'a' : ' ');
      if (request.path === '/huge-json') response.write('{"decision":"block","reason":"');
      // Paced (64 KiB every 5 ms, ~400 ms for 5 MB) so kernel buffers cannot swallow the whole body
      // and make it look read: a reader that stops early leaves the server unfinished.
      let sent = 0;
      const timer = setInterval(() => {
        if (response.destroyed) return;
        sent += piece.length;
        response.write(piece);
        if (sent >= FIVE_MB) {
          clearInterval(timer);
          response.end('"}', () => bigBodyFullyWritten++);
        }
      }, 5);
      response.on('close', () => clearInterval(timer));
      response.on('error', () => undefined);
      return;
    }
    response.writeHead(200);
    response.end();
  });
});
afterAll(() => server.close());

test('a 5 MB HTML body is cut at 1 MiB and flagged; the hook proceeds with a warning', async () => {
  const memoryBefore = process.memoryUsage().arrayBuffers;
  const outcome = await emitOnce(httpHook(`${server.origin}/huge-html`, 'tls = "off"'));
  const report = outcome.hooks[0]!;
  expect(report).toMatchObject({
    status: 'ok',
    decision: { decision: 'proceed' },
    response_truncated: true,
    http_status: 200,
  });
  expect(report.warnings).toEqual([
    'the response body was larger than 1048576 bytes and was cut there; it held no decision, so the hook proceeds',
  ]);
  // The reader stopped: the server never got to finish writing 5 MB to us.
  expect(bigBodyFullyWritten).toBe(0);
  expect(process.memoryUsage().arrayBuffers - memoryBefore).toBeLessThan(FIVE_MB);
});

test('a 5 MB JSON body is cut too, and fails rather than guess at the decision it may hold', async () => {
  const outcome = await emitOnce(httpHook(`${server.origin}/huge-json`, 'tls = "off"\non_error = "block"'));
  const report = outcome.hooks[0]!;
  expect(report).toMatchObject({ status: 'failed', response_truncated: true });
  expect(report.error).toContain('the body is a JSON answer larger than 1048576 bytes');
  expect(outcome.decision).toBe('block');
});

test('the cap is a runner setting', async () => {
  const outcome = await emitOnce(httpHook(`${server.origin}/huge-html`, 'tls = "off"'), {
    runner: httpRunner({ maxResponseBytes: 1_000 }),
  });
  expect(outcome.hooks[0]?.warnings?.[0]).toContain('larger than 1000 bytes');
});

test('1 000 sequential hooks reuse a handful of connections', async () => {
  const runner = httpRunner();
  const engine = createHookEngine({
    config: load(httpHook(`${server.origin}/ok`, 'tls = "off"'), runner),
    runners: [runner],
  });
  const acceptedBefore = server.accepted();
  const requestsBefore = server.requests.length;
  try {
    for (let index = 0; index < 1_000; index++) {
      const outcome = await engine.emit('stage_start', CONTEXT);
      if (outcome.hooks[0]?.status !== 'ok') throw new Error(`hook ${index}: ${JSON.stringify(outcome.hooks[0])}`);
    }
  } finally {
    await engine.close();
  }
  expect(server.requests.length - requestsBefore).toBe(1_000);
  const opened = server.accepted() - acceptedBefore;
  expect(opened).toBeGreaterThanOrEqual(1);
  expect(opened).toBeLessThanOrEqual(3);
});

test('500 concurrent non-blocking deliveries each arrive exactly once', async () => {
  const runner = httpRunner();
  const config = load(
    httpHook(`${server.origin}/fan-out`, 'tls = "off"').replace('event = "stage_start"', 'event = "stage_complete"'),
    runner,
  );
  expect(config.hooks[0]?.blocking).toBe(false);
  const engine = createHookEngine({ config, runners: [runner], concurrency: 100 });
  const requestsBefore = server.requests.length;
  try {
    const outcomes = await Promise.all(
      Array.from({ length: 500 }, (_, index) => engine.emit('stage_complete', { ...CONTEXT, delivery: index })),
    );
    const settled = await Promise.all(outcomes.map((outcome) => outcome.settled));
    expect(settled.filter((outcome) => outcome.hooks[0]?.status === 'ok')).toHaveLength(500);
  } finally {
    await engine.close();
  }
  const received = server.requests
    .slice(requestsBefore)
    .map((request) => (JSON.parse(request.body.toString('utf8')) as { delivery: number }).delivery);
  expect(received).toHaveLength(500);
  expect([...new Set(received)].sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, index) => index));
});
