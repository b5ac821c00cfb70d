// The runner object itself: its declaration, laziness and shutdown.
import { createHookEngine } from '@hookline/core';
import { FIRST_PARTY_TYPES } from '@hookline/core/plugin';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HTTP_RUNNER_NAME, httpRunner } from './index.ts';
import { startHttpServer, type TestServer } from '../test-support/servers.ts';
import { CONTEXT, httpHook, load } from '../test-support/hooks.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((_request, response) => {
    response.writeHead(200);
    response.end();
  });
});
afterAll(() => server.close());

test('declares type "http" with the SPEC defaults: 60 s, fail-open, no sandbox', () => {
  const runner = httpRunner();
  expect(runner.name).toBe(HTTP_RUNNER_NAME);
  expect(FIRST_PARTY_TYPES['http']).toBe(HTTP_RUNNER_NAME);
  expect(runner.types['http']).toMatchObject({
    defaultTimeoutMs: 60_000,
    defaultOnError: 'proceed',
    usesSandbox: false,
  });
  expect(Object.keys(runner.types['http']!.options.entries).sort()).toEqual([
    'allowed_env_vars',
    'block_private_addresses',
    'endpoint',
    'headers',
    'retry',
    'signing_secret_env',
    'tls',
    'url',
  ]);
});

test('hooks load with sandbox = true (the default) and need no sandbox provider', () => {
  const runner = httpRunner();
  const config = load(httpHook(`${server.origin}/x`, 'tls = "off"'), runner);
  expect(config.hooks[0]).toMatchObject({ sandbox: true, timeoutMs: 60_000, onError: 'proceed' });
  expect(() => createHookEngine({ config, runners: [runner] })).not.toThrow();
});

test('construction and an unused close do no I/O', async () => {
  const accepted = server.accepted();
  const runner = httpRunner();
  await runner.doClose?.();
  expect(server.accepted()).toBe(accepted);
});

test('closing the engine closes the pooled keep-alive connections; the runner works again afterwards', async () => {
  server.requests.length = 0;
  const runner = httpRunner();
  const config = load(httpHook(`${server.origin}/x`, 'tls = "off"'), runner);
  const engine = createHookEngine({ config, runners: [runner] });
  await engine.emit('stage_start', CONTEXT);
  const sockets = await openSockets();
  expect(sockets).toBe(1);
  await engine.close();
  await expect.poll(openSockets, { timeout: 2_000 }).toBe(0);

  const again = createHookEngine({ config, runners: [runner] });
  const outcome = await again.emit('stage_start', CONTEXT);
  await again.close();
  expect(outcome.hooks[0]?.status).toBe('ok');
});

test('settings are validated at construction', () => {
  expect(() => httpRunner({ maxResponseBytes: 0 })).toThrow('maxResponseBytes must be a positive integer');
  expect(() => httpRunner({ connectionsPerOrigin: 1.5 })).toThrow('connectionsPerOrigin');
  expect(() => httpRunner({ connectTimeoutMs: -1 })).toThrow(
    expect.objectContaining({ code: 'HOOKLINE_INVALID_OPTION', option: 'connectTimeoutMs' }),
  );
});

// Open server-side sockets, asked of the server itself.
function openSockets(): Promise<number> {
  return server.openConnections();
}
