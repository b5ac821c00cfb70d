// HTTP hook answers: what each HTTP response means, against a real server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { answer, startHttpServer, type TestServer } from '../test-support/servers.ts';
import { CONTEXT, emitOnce, httpHook } from '../test-support/hooks.ts';

let server: TestServer;
const routes: Record<string, (response: import('node:http').ServerResponse) => void> = {
  '/block': answer(200, '{"decision":"block","reason":"frozen for release"}', { 'content-type': 'application/json' }),
  '/skip': answer(200, '  {"decision":"skip","reason":"cached","extra":1}\n'),
  '/empty': answer(200),
  '/html': answer(200, '<!doctype html><html><body>{"decision":"block"}</body></html>', {
    'content-type': 'text/html',
  }),
  '/not-a-decision': answer(200, '{"ok":true}'),
  '/bad-decision': answer(200, '{"decision":"deny","reason":"nope"}'),
  '/override-without-edge': answer(200, '{"decision":"override"}'),
  '/no-content': answer(204),
  '/early-hints': (response) => {
    response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    answer(200, '{"decision":"skip","reason":"after hints"}')(response);
  },
  '/moved': answer(301, 'moved', { location: '/elsewhere' }),
  '/found': answer(302, '', { location: 'https://other.example/next' }),
  '/missing': answer(404, 'no such hook endpoint'),
  '/broken': answer(500, 'Internal error:\n  database is down\n'),
  '/unavailable': answer(503, '', { 'retry-after': '5' }),
};

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const route = routes[request.path];
    if (route === undefined) answer(418, 'unexpected path')(response);
    else route(response);
  });
});
afterAll(() => server.close());

const hookAt = (path: string, extra = '') => httpHook(`${server.origin}${path}`, `tls = "off"\n${extra}`);

describe('2xx answers', () => {
  test('a decision JSON body is the decision, with its reason', async () => {
    const outcome = await emitOnce(hookAt('/block'));
    expect(outcome.hooks[0]).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'frozen for release' },
      http_status: 200,
    });
    expect([outcome.decision, outcome.reason, outcome.decided_by]).toEqual(['block', 'frozen for release', 'web']);
  });

  test('whitespace around the JSON and unknown fields are fine', async () => {
    const outcome = await emitOnce(hookAt('/skip'));
    expect(outcome.hooks[0]?.decision).toEqual({ decision: 'skip', reason: 'cached' });
    expect(outcome.decision).toBe('skip');
  });

  test.each([
    ['/empty', 200],
    ['/html', 200],
    ['/not-a-decision', 200],
    ['/no-content', 204],
  ])('%s (%i) proceeds', async (path, status) => {
    const outcome = await emitOnce(hookAt(path));
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'proceed' }, http_status: status });
    expect(outcome.hooks[0]?.error).toBeUndefined();
    expect(outcome.warnings).toEqual([]);
  });

  test('informational 1xx answers before the real one are skipped', async () => {
    const outcome = await emitOnce(hookAt('/early-hints'));
    expect(outcome.hooks[0]).toMatchObject({
      status: 'ok',
      decision: { decision: 'skip', reason: 'after hints' },
      http_status: 200,
    });
  });

  test.each(['/bad-decision', '/override-without-edge'])(
    '%s: a "decision" field that is not a valid decision fails, never silently proceeds',
    async (path) => {
      const outcome = await emitOnce(hookAt(path, 'on_error = "block"'));
      const report = outcome.hooks[0]!;
      expect(report.status).toBe('failed');
      expect(report.error).toContain('invalid decision');
      expect(outcome.decision).toBe('block');
    },
  );
});

describe('redirects and errors', () => {
  test.each([
    ['/moved', '301', 'Location: /elsewhere'],
    ['/found', '302', 'Location: https://other.example/next'],
  ])('%s: a %s is a failure naming the Location, and is not followed', async (path, status, location) => {
    const before = server.requests.length;
    const outcome = await emitOnce(hookAt(path));
    const report = outcome.hooks[0]!;
    expect(report.status).toBe('failed');
    expect(report.error).toContain(`answered ${status}`);
    expect(report.error).toContain(location);
    expect(report.error).toContain('redirects are not followed');
    expect(server.requests.slice(before).map((request) => request.path)).toEqual([path]);
    // Fail-open by default, and visibly so.
    expect(outcome.decision).toBe('proceed');
    expect(outcome.warnings.some((warning) => warning.includes('web'))).toBe(true);
  });

  test.each([
    ['/missing', 'answered 404 Not Found: no such hook endpoint'],
    ['/broken', 'answered 500 Internal Server Error: Internal error: database is down'],
    ['/unavailable', 'answered 503 Service Unavailable with an empty body'],
  ])('%s fails with the status and a body excerpt', async (path, expected) => {
    const outcome = await emitOnce(hookAt(path));
    const report = outcome.hooks[0]!;
    expect(report.status).toBe('failed');
    expect(report.error).toBe(`POST ${server.origin}${path} ${expected}`);
    expect(report.decision).toEqual({ decision: 'proceed', reason: report.error });
  });

  test('on_error = "block" makes a failure block', async () => {
    const outcome = await emitOnce(hookAt('/broken', 'on_error = "block"'));
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.decision).toBe('block');
  });

  test('a long error body is cut to a short excerpt', async () => {
    routes['/long-error'] = answer(500, 'x'.repeat(10_000));
    const outcome = await emitOnce(hookAt('/long-error'));
    expect(outcome.hooks[0]?.error?.length).toBeLessThan(400);
    expect(outcome.hooks[0]?.error).toMatch(/x…$/);
  });
});

describe('the request', () => {
  test('POSTs the context JSON, byte for byte, as application/json', async () => {
    const before = server.requests.length;
    await emitOnce(hookAt('/empty'), { context: { attempt: 2, edge_label: 'ünïcødé ✓', status: null } });
    const received = server.requests[before]!;
    expect(received.method).toBe('POST');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['user-agent']).toBe('hookline-runner-http');
    expect(Number(received.headers['content-length'])).toBe(received.body.length);
    const body = received.body.toString('utf8');
    expect(body).toBe(JSON.stringify({ event: 'stage_start', ...CONTEXT, attempt: 2, edge_label: 'ünïcødé ✓' }));
  });

  test('keeps the query string, and a hook may set its own content-type', async () => {
    const before = server.requests.length;
    routes['/empty?tenant=a'] = answer(200);
    await emitOnce(
      hookAt('/empty?tenant=a', '[hooks.headers]\nContent-Type = "application/cloudevents+json"\nUser-Agent = "mine"'),
    );
    const received = server.requests[before]!;
    expect(received.path).toBe('/empty?tenant=a');
    expect(received.headers['content-type']).toBe('application/cloudevents+json');
    expect(received.headers['user-agent']).toBe('mine');
  });

  test('an unnamed hook is named "{event}:{url}"', async () => {
    const url = `${server.origin}/empty`;
    const outcome = await emitOnce(`[[hooks]]\nevent = "stage_start"\ntype = "http"\nurl = "${url}"\ntls = "off"\n`);
    expect(outcome.hooks[0]?.name).toBe(`stage_start:${url}`);
  });
});
