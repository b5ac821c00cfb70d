// Header interpolation from allow-listed environment variables, and secrets kept out of reports.
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { formatConfigIssue } from '@hookline/core';
import { startHttpServer, type TestServer } from '../test-support/servers.ts';
import { emitOnce, httpHook, loadError } from '../test-support/hooks.ts';
import { findEnvReferences, replaceEnvReferences } from './env-references.ts';

const SECRET = 'tok_9f8e7d6c5b4a-very-secret';
let server: TestServer;

beforeAll(async () => {
  // Echoes every request header back in a 500 body: the worst case for a leak into reports.
  server = await startHttpServer((request, response) => {
    if (request.path === '/echo-error') {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`rejected request with headers ${JSON.stringify(request.headers)}`);
      return;
    }
    if (request.path === '/echo-redirect') {
      response.writeHead(302, { location: `https://login.example/?auth=${String(request.headers.authorization)}` });
      response.end();
      return;
    }
    response.writeHead(200);
    response.end();
  });
});
afterAll(() => server.close());
afterEach(() => {
  delete process.env['HOOKLINE_TEST_TOKEN'];
  delete process.env['HOOKLINE_TEST_TENANT'];
  delete process.env['HOOKLINE_TEST_UNSET'];
});

const headersHook = (path: string, headers: string, allowed: string[], extra = '') =>
  httpHook(
    `${server.origin}${path}`,
    `tls = "off"\nallowed_env_vars = ${JSON.stringify(allowed)}\n${extra}\n[hooks.headers]\n${headers}`,
  );

test('$VAR and ${VAR} are replaced from the environment at run time', async () => {
  process.env['HOOKLINE_TEST_TOKEN'] = SECRET;
  process.env['HOOKLINE_TEST_TENANT'] = 'acme';
  const toml = headersHook(
    '/ok',
    'Authorization = "Bearer $HOOKLINE_TEST_TOKEN"\nX-Tenant = "${HOOKLINE_TEST_TENANT}-prod"\nX-Literal = "costs $5 or $ or ${not a name}"',
    ['HOOKLINE_TEST_TOKEN', 'HOOKLINE_TEST_TENANT'],
  );
  const outcome = await emitOnce(toml);
  expect(outcome.hooks[0]?.status).toBe('ok');
  const received = server.requests.at(-1)!;
  expect(received.headers.authorization).toBe(`Bearer ${SECRET}`);
  expect(received.headers['x-tenant']).toBe('acme-prod');
  expect(received.headers['x-literal']).toBe('costs $5 or $ or ${not a name}');
  expect(JSON.stringify(outcome)).not.toContain(SECRET);
});

test('the environment is read per delivery, so a rotated token is used without reloading', async () => {
  const toml = headersHook('/ok', 'Authorization = "Bearer $HOOKLINE_TEST_TOKEN"', ['HOOKLINE_TEST_TOKEN']);
  process.env['HOOKLINE_TEST_TOKEN'] = 'first';
  await emitOnce(toml);
  process.env['HOOKLINE_TEST_TOKEN'] = 'second';
  await emitOnce(toml);
  expect(server.requests.slice(-2).map((request) => request.headers.authorization)).toEqual([
    'Bearer first',
    'Bearer second',
  ]);
});

test('a value is not expanded twice: an environment value holding $OTHER is sent as written', async () => {
  process.env['HOOKLINE_TEST_TOKEN'] = '$HOOKLINE_TEST_TENANT';
  process.env['HOOKLINE_TEST_TENANT'] = 'acme';
  await emitOnce(
    headersHook('/ok', 'X-Token = "$HOOKLINE_TEST_TOKEN"', ['HOOKLINE_TEST_TOKEN', 'HOOKLINE_TEST_TENANT']),
  );
  expect(server.requests.at(-1)?.headers['x-token']).toBe('$HOOKLINE_TEST_TENANT');
});

test('a listed but unset variable is sent as empty, with a warning in the report', async () => {
  const outcome = await emitOnce(headersHook('/ok', 'X-Trace = "id-${HOOKLINE_TEST_UNSET}"', ['HOOKLINE_TEST_UNSET']));
  const report = outcome.hooks[0]!;
  expect(report.status).toBe('ok');
  expect(report.warnings).toEqual([
    'header `X-Trace`: HOOKLINE_TEST_UNSET is listed in allowed_env_vars but not set; it was sent as empty',
  ]);
  expect(server.requests.at(-1)?.headers['x-trace']).toBe('id-');
});

test('an unlisted variable is a load error naming the header, the variable and its line', () => {
  const toml = headersHook('/ok', 'Authorization = "Bearer $HOOKLINE_TEST_TOKEN"\nX-Other = "${HOME}"', [
    'HOOKLINE_TEST_TENANT',
  ]);
  const error = loadError(toml);
  const lines = error.issues.map(formatConfigIssue);
  const headersLine = toml.split('\n').indexOf('[hooks.headers]') + 1;
  expect(lines).toEqual([
    `hookline.toml:${headersLine}: hooks[0] "web": header \`Authorization\` references $HOOKLINE_TEST_TOKEN, but HOOKLINE_TEST_TOKEN is not listed in allowed_env_vars; add allowed_env_vars = ["HOOKLINE_TEST_TENANT", "HOOKLINE_TEST_TOKEN"] (only listed variables are read from the environment)`,
    `hookline.toml:${headersLine}: hooks[0] "web": header \`X-Other\` references \${HOME}, but HOME is not listed in allowed_env_vars; add allowed_env_vars = ["HOOKLINE_TEST_TENANT", "HOME"] (only listed variables are read from the environment)`,
  ]);
});

test('a hook without allowed_env_vars may not reference any variable', () => {
  const error = loadError(
    httpHook(`${server.origin}/ok`, 'tls = "off"\nheaders = { Authorization = "Bearer $TOKEN" }'),
  );
  expect(error.issues[0]?.message).toContain('TOKEN is not listed in allowed_env_vars');
});

test('secrets never reach the report, even when the server echoes the headers in an error', async () => {
  process.env['HOOKLINE_TEST_TOKEN'] = SECRET;
  const outcome = await emitOnce(
    headersHook('/echo-error', 'Authorization = "Bearer $HOOKLINE_TEST_TOKEN"', ['HOOKLINE_TEST_TOKEN']),
  );
  const report = outcome.hooks[0]!;
  // The echo arrived (so the test is not vacuous) and the token was redacted from it.
  expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
  expect(report.status).toBe('failed');
  expect(report.error).toContain('"authorization":"Bearer [redacted]"');
  expect(JSON.stringify(outcome)).not.toContain(SECRET);
  expect(JSON.stringify(outcome)).not.toContain('9f8e7d6c');
});

test('secrets never reach the report through a redirect Location', async () => {
  process.env['HOOKLINE_TEST_TOKEN'] = SECRET;
  const outcome = await emitOnce(
    headersHook('/echo-redirect', 'Authorization = "$HOOKLINE_TEST_TOKEN"', ['HOOKLINE_TEST_TOKEN']),
  );
  expect(outcome.hooks[0]?.error).toContain('Location: https://login.example/?auth=[redacted]');
  expect(JSON.stringify(outcome)).not.toContain(SECRET);
});

test('an environment value with a line break fails the hook without quoting the value', async () => {
  process.env['HOOKLINE_TEST_TOKEN'] = `${SECRET}\r\nX-Injected: yes`;
  const before = server.requests.length;
  const outcome = await emitOnce(
    headersHook('/ok', 'Authorization = "Bearer $HOOKLINE_TEST_TOKEN"', ['HOOKLINE_TEST_TOKEN']),
  );
  expect(outcome.hooks[0]?.status).toBe('failed');
  expect(outcome.hooks[0]?.error).toContain('header `Authorization` would contain a line break');
  expect(JSON.stringify(outcome)).not.toContain(SECRET);
  expect(server.requests.length).toBe(before);
});

test('header names and values are checked at load', () => {
  const toml = headersHook(
    '/ok',
    '"Bad Name" = "x"\nHost = "evil.example"\nContent-Length = "3"\nX-A = "1"\nx-a = "2"\nX-Break = "a\\nb"',
    [],
  );
  const messages = loadError(toml).issues.map((issue) => issue.message);
  expect(messages).toEqual([
    expect.stringContaining('"Bad Name" is not a valid HTTP field name'),
    'header `Host` is managed by the HTTP client and cannot be set by a hook',
    'header `Content-Length` is managed by the HTTP client and cannot be set by a hook',
    'headers `X-A` and `x-a` are the same header (names are case-insensitive); keep one',
    'header `X-Break` contains a line break or NUL, which cannot be sent',
  ]);
});

test('allowed_env_vars entries must be variable names', () => {
  const messages = loadError(headersHook('/ok', 'X-A = "1"', ['GOOD_NAME', '1BAD', 'has-dash'])).issues.map(
    (issue) => issue.message,
  );
  expect(messages).toEqual([
    expect.stringContaining('"1BAD" is not a valid variable name'),
    expect.stringContaining('"has-dash" is not a valid variable name'),
  ]);
});

test('findEnvReferences and replaceEnvReferences agree on the syntax', () => {
  const text = 'a $ONE b ${TWO} c $3 d ${ e $_x9 f $$ g ${UNCLOSED h ${BAD-NAME}';
  expect(findEnvReferences(text).map((reference) => [reference.name, reference.text])).toEqual([
    ['ONE', '$ONE'],
    ['TWO', '${TWO}'],
    ['_x9', '$_x9'],
  ]);
  expect(replaceEnvReferences(text, (name) => `<${name}>`)).toBe(
    'a <ONE> b <TWO> c $3 d ${ e <_x9> f $$ g ${UNCLOSED h ${BAD-NAME}',
  );
});
