// block_private_addresses end to end: real loopback servers that must receive nothing.
import { Socket } from 'node:net';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { httpRunner } from './http-runner.ts';
import { answer, startHttpServer, type TestServer } from '../test-support/servers.ts';
import { emitOnce, httpHook } from '../test-support/hooks.ts';

let v4: TestServer;
let v6: TestServer;
const ok = answer(200, '{"decision":"block","reason":"reached"}');
const pass = answer(200);

beforeAll(async () => {
  v4 = await startHttpServer((request, response) => (request.path === '/pass' ? pass(response) : ok(response)));
  v6 = await startHttpServer((_request, response) => ok(response), '::1');
});
afterAll(async () => {
  await v4.close();
  await v6.close();
});

// Every spelling points at one of the two servers, so "refused" can be told from "unreachable".
const targets = (): Array<[string, TestServer]> => [
  [`http://127.0.0.1:${v4.port}/hook`, v4],
  [`http://[::1]:${v6.port}/hook`, v6],
  [`http://[::ffff:127.0.0.1]:${v4.port}/hook`, v4],
  [`http://2130706433:${v4.port}/hook`, v4],
  [`http://0x7f.1:${v4.port}/hook`, v4],
  [`http://0177.0.0.1:${v4.port}/hook`, v4],
  [`http://localhost:${v4.port}/hook`, v4],
];

test('with the flag off (the default), each spelling reaches the loopback server', async () => {
  for (const [url, server] of targets()) {
    const before = server.requests.length;
    const outcome = await emitOnce(httpHook(url, 'tls = "off"'));
    expect([url, outcome.hooks[0]?.status, outcome.hooks[0]?.decision?.reason]).toEqual([url, 'ok', 'reached']);
    expect(server.requests.length).toBe(before + 1);
  }
});

test('with block_private_addresses = true, each is refused and the server receives nothing, not even a connection', async () => {
  for (const [url, server] of targets()) {
    const accepted = server.accepted();
    const requests = server.requests.length;
    const outcome = await emitOnce(httpHook(url, 'tls = "off"\nblock_private_addresses = true\non_error = "block"'));
    const report = outcome.hooks[0]!;
    expect([url, report.status]).toEqual([url, 'failed']);
    expect(report.error).toMatch(
      /refused to connect to private address (127\.0\.0\.1|::1|::ffff:7f00:1) \((loopback|IPv4-mapped loopback)\)/,
    );
    expect(outcome.decision).toBe('block');
    expect([url, server.accepted(), server.requests.length]).toEqual([url, accepted, requests]);
  }
});

test('a name is refused by what it resolves to, and the message says so', async () => {
  const outcome = await emitOnce(
    httpHook(`http://localhost:${v4.port}/hook`, 'tls = "off"\nblock_private_addresses = true'),
  );
  expect(outcome.hooks[0]?.error).toBe(
    `POST http://localhost:${v4.port}/hook: refused to connect to private address 127.0.0.1 (loopback), which localhost resolves to; block_private_addresses = true allows public addresses only`,
  );
});

test('a name that resolves to a private address through a custom resolver (DNS rebinding) is refused', async () => {
  const accepted = v4.accepted();
  const runner = httpRunner({
    lookup: (_hostname, options, callback) =>
      options.all === true ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4),
  });
  const outcome = await emitOnce(
    httpHook(`http://innocent.example:${v4.port}/hook`, 'tls = "off"\nblock_private_addresses = true'),
    { runner },
  );
  expect(outcome.hooks[0]?.error).toContain(
    'refused to connect to private address 127.0.0.1 (loopback), which innocent.example resolves to',
  );
  expect(v4.accepted()).toBe(accepted);
});

test('the cloud metadata address is refused before any connection attempt', async () => {
  // Every socket the runner dials goes through Socket#connect: watch it, and show with a real
  // delivery first that the watch sees dialling at all.
  const dialled = vi.spyOn(Socket.prototype, 'connect');
  try {
    await emitOnce(httpHook(`http://127.0.0.1:${v4.port}/pass`, 'tls = "off"'));
    expect(dialled).toHaveBeenCalled();
    dialled.mockClear();
    const outcome = await emitOnce(
      httpHook('http://169.254.169.254/latest/meta-data/', 'tls = "off"\nblock_private_addresses = true'),
    );
    expect(outcome.hooks[0]?.error).toBe(
      'POST http://169.254.169.254/latest/meta-data/: refused to connect to private address 169.254.169.254 (cloud metadata); block_private_addresses = true allows public addresses only',
    );
    expect(dialled).not.toHaveBeenCalled();
  } finally {
    dialled.mockRestore();
  }
});

test('https is guarded the same way', async () => {
  const outcome = await emitOnce(httpHook(`https://127.0.0.1:${v4.port}/hook`, 'block_private_addresses = true'));
  expect(outcome.hooks[0]?.error).toContain('refused to connect to private address 127.0.0.1 (loopback)');
});

test('a guarded hook never reuses a connection an unguarded hook opened to the same origin', async () => {
  const url = `http://127.0.0.1:${v4.port}/pass`;
  const toml = [
    httpHook(url, 'tls = "off"').replace('name = "web"', 'name = "open"'),
    httpHook(url, 'tls = "off"\nblock_private_addresses = true').replace('name = "web"', 'name = "guarded"'),
  ].join('\n');
  const requests = v4.requests.length;
  // One runner, one engine: the open hook leaves a keep-alive connection in the runner's pool.
  const outcome = await emitOnce(toml);
  expect(outcome.hooks.map((report) => [report.name, report.status])).toEqual([
    ['open', 'ok'],
    ['guarded', 'failed'],
  ]);
  expect(outcome.hooks[1]?.error).toContain('refused to connect to private address 127.0.0.1');
  expect(v4.requests.length).toBe(requests + 1);
});
