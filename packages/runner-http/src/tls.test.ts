// TLS modes against a real HTTPS server with a certificate generated for this run.
import { once } from 'node:events';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatConfigIssue } from '@hookline/core';
import { selfSignedCertificate } from '../test-support/certificate.ts';
import { answer, startHttpServer, startHttpsServer, type TestServer } from '../test-support/servers.ts';
import { emitOnce, httpHook, load, loadError } from '../test-support/hooks.ts';

let https: TestServer;
let http: TestServer;
let certificate: ReturnType<typeof selfSignedCertificate>;
const decision = answer(200, '{"decision":"block","reason":"from the server"}');

beforeAll(async () => {
  certificate = selfSignedCertificate();
  https = await startHttpsServer((_request, response) => decision(response), certificate);
  http = await startHttpServer((_request, response) => decision(response));
});
afterAll(async () => {
  await https.close();
  await http.close();
});

test('tls = "verify" (the default) refuses a self-signed certificate with a clear TLS error; nothing is sent', async () => {
  const outcome = await emitOnce(httpHook(`${https.origin}/hook`));
  const report = outcome.hooks[0]!;
  expect(report.status).toBe('failed');
  expect(report.error).toContain("the server's TLS certificate was rejected");
  expect(report.error).toMatch(/self-signed certificate.*DEPTH_ZERO_SELF_SIGNED_CERT/);
  expect(report.error).toContain('tls = "no_verify"');
  expect(https.requests).toHaveLength(0);
  expect(outcome.decision).toBe('proceed');
});

test('tls = "no_verify" talks to the same server', async () => {
  const outcome = await emitOnce(httpHook(`${https.origin}/hook`, 'tls = "no_verify"'));
  expect(outcome.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'block', reason: 'from the server' } });
  expect(https.requests.length).toBeGreaterThan(0);
});

test('tls = "off" does not turn certificate checks off for an https:// url', async () => {
  const before = https.requests.length;
  const outcome = await emitOnce(httpHook(`${https.origin}/hook`, 'tls = "off"'));
  expect(outcome.hooks[0]?.status).toBe('failed');
  expect(outcome.hooks[0]?.error).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
  expect(https.requests.length).toBe(before);
});

test.each(['verify', 'no_verify'])('an http:// url with tls = "%s" is a load error at the url line', (mode) => {
  const toml = `[[hooks]]\nname = "plain"\nevent = "stage_start"\ntype = "http"\n\nurl = "${http.origin}/hook"\ntls = "${mode}"\n`;
  const error = loadError(toml);
  expect(error.issues).toHaveLength(1);
  const issue = error.issues[0]!;
  expect(issue).toMatchObject({ file: 'hookline.toml', line: 6, hook: { index: 0, name: 'plain' } });
  expect(formatConfigIssue(issue)).toContain(
    `hookline.toml:6: hooks[0] "plain": \`url\` is http:// but tls = "${mode}" requires https://`,
  );
});

test('an http:// url with no tls key is a load error too (verify is the default)', () => {
  const error = loadError(httpHook(`${http.origin}/hook`));
  expect(error.issues.map((issue) => issue.message)).toEqual([
    expect.stringContaining('tls = "verify" requires https://'),
  ]);
});

test('an http:// url with tls = "off" loads and is delivered', async () => {
  expect(load(httpHook(`${http.origin}/hook`, 'tls = "off"')).hooks).toHaveLength(1);
  const outcome = await emitOnce(httpHook(`${http.origin}/hook`, 'tls = "off"'));
  expect(outcome.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'block' } });
  expect(http.requests).toHaveLength(1);
});

test('a server that offers HTTP/2 over ALPN is spoken to in HTTP/2', async () => {
  const versions: string[] = [];
  const server = createSecureServer(
    { key: certificate.key, cert: certificate.cert, allowHTTP1: true },
    (request, response) => {
      versions.push(request.httpVersion);
      response.writeHead(200);
      response.end('{"decision":"skip","reason":"over h2"}');
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const outcome = await emitOnce(
      httpHook(`https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, 'tls = "no_verify"'),
    );
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'skip', reason: 'over h2' } });
    expect(versions).toEqual(['2.0']);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
