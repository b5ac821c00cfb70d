// Connection failures and deadlines: refused, silent, trickling servers.
import { createHookEngine } from '@hookline/core';
import { Agent } from 'undici';
import { afterEach, expect, test, vi } from 'vitest';
import { httpRunner } from './http-runner.ts';
import { sendRequest } from './send-request.ts';
import { closedPort, startHttpServer, startSilentServer, type TestServer } from '../test-support/servers.ts';
import { CONTEXT, emitOnce, httpHook, load } from '../test-support/hooks.ts';

// Longer than the package's test timeout (vitest.config.ts): a wait this long fails the test instead.
const OUTLASTS_THE_TEST_MS = 120_000;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

test('connection refused is failed with a clear error, decided by on_error', async () => {
  const port = await closedPort();
  const outcome = await emitOnce(httpHook(`http://127.0.0.1:${port}/hook`, 'tls = "off"'));
  const report = outcome.hooks[0]!;
  expect(report.status).toBe('failed');
  expect(report.error).toContain(`POST http://127.0.0.1:${port}/hook: connection refused`);
  expect(report.error).toContain('ECONNREFUSED');
  expect(outcome.decision).toBe('proceed');
});

test('a server that accepts and never answers is timed_out at the deadline, and the deadline drops the request', async () => {
  const silent = await startSilentServer();
  servers.push(silent);
  const started = performance.now();
  const outcome = await emitOnce(httpHook(`${silent.origin}/hook`, 'tls = "off"\ntimeout_ms = 400'));
  const elapsed = performance.now() - started;
  expect(silent.accepted()).toBe(1);
  expect(outcome.hooks[0]).toMatchObject({
    status: 'timed_out',
    error: 'hook timed out after 400 ms',
    decision: { decision: 'proceed' },
  });
  expect(elapsed).toBeGreaterThanOrEqual(390);

  // What ends the request is the deadline's abort, not undici's inactivity limit (a second after the
  // deadline in the runner): with that limit outlasting the test, only the abort can drop the connection.
  const agent = new Agent();
  try {
    const controller = new AbortController();
    const sent = sendRequest(agent, {
      origin: silent.origin,
      path: '/hook',
      headers: {},
      body: Buffer.from('{}'),
      signal: controller.signal,
      maxResponseBytes: 1024,
      idleTimeoutMs: OUTLASTS_THE_TEST_MS,
    });
    await vi.waitFor(() => expect(silent.accepted()).toBe(2), { timeout: 10_000 });
    controller.abort(new Error('the deadline passed'));
    await expect(sent).rejects.toThrow('the deadline passed');
    await vi.waitFor(async () => expect(await silent.openConnections()).toBe(0), { timeout: 10_000 });
  } finally {
    await agent.destroy();
  }
});

test('a server that trickles its body past the deadline is timed_out, and its connection is dropped', async () => {
  let closedByClient = false;
  const trickle = await startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"decision":');
    const timer = setInterval(() => response.write(' '), 50);
    response.on('close', () => {
      clearInterval(timer);
      closedByClient = true;
    });
  });
  servers.push(trickle);
  const outcome = await emitOnce(
    httpHook(`${trickle.origin}/hook`, 'tls = "off"\ntimeout_ms = 500\non_error = "block"'),
    { closeGraceMs: OUTLASTS_THE_TEST_MS },
  );
  expect(trickle.requests).toHaveLength(1);
  expect(outcome.hooks[0]).toMatchObject({ status: 'timed_out', error: 'hook timed out after 500 ms' });
  expect(outcome.decision).toBe('block');
  await expect.poll(() => closedByClient, { timeout: 2_000 }).toBe(true);
});

test('a server that closes the connection mid-answer is failed', async () => {
  const rude = await startHttpServer((_request, response) => {
    response.socket?.destroy();
  });
  servers.push(rude);
  const outcome = await emitOnce(httpHook(`${rude.origin}/hook`, 'tls = "off"'));
  expect(outcome.hooks[0]?.status).toBe('failed');
  expect(outcome.hooks[0]?.error).toContain('the connection closed before a complete answer');
});

test('an unresolvable host name is failed', async () => {
  const outcome = await emitOnce(httpHook('http://no-such-host.invalid/hook', 'tls = "off"'));
  expect(outcome.hooks[0]?.status).toBe('failed');
  expect(outcome.hooks[0]?.error).toContain('could not be resolved');
});

test('a request still queued for a connection ends at its deadline and is never sent afterwards', async () => {
  const server = await startHttpServer((request, response) => {
    // The first request holds the only connection for 600 ms.
    setTimeout(() => answer(response), request.path === '/hold' ? 600 : 0);
  });
  servers.push(server);
  const runner = httpRunner({ connectionsPerOrigin: 1 });
  const toml = [
    httpHook(`${server.origin}/hold`, 'tls = "off"\nblocking = false').replace('name = "web"', 'name = "hold"'),
    httpHook(`${server.origin}/queued`, 'tls = "off"\nblocking = false\ntimeout_ms = 200').replace(
      'name = "web"',
      'name = "queued"',
    ),
  ].join('\n');
  const engine = createHookEngine({ config: load(toml, runner), runners: [runner] });
  try {
    const started = performance.now();
    const outcome = await (await engine.emit('stage_start', CONTEXT)).settled;
    expect(outcome.hooks.map((report) => [report.name, report.status])).toEqual([
      ['hold', 'ok'],
      ['queued', 'timed_out'],
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
    // The held connection is free again: a request that had not been abandoned would go out now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.requests.map((request) => request.path)).toEqual(['/hold']);
  } finally {
    await engine.close();
  }
});

function answer(response: import('node:http').ServerResponse): void {
  response.writeHead(200);
  response.end();
}
