// Standard Webhooks signing: the specification's test vector, and real deliveries verified the way
// a receiver would verify them.
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startHttpServer, type TestServer } from '../test-support/servers.ts';
import { verifyWebhook } from '../test-support/verify-webhook.ts';
import { emitOnce, httpHook, loadError } from '../test-support/hooks.ts';
import { signWebhook } from './sign-webhook.ts';
import { readWebhookSecret } from './webhook-secret.ts';

// The test vector published with the Standard Webhooks specification.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

test('signWebhook reproduces the specification test vector', () => {
  const secret = readWebhookSecret('VECTOR_SECRET', VECTOR.secret);
  if (!secret.ok) throw new Error(secret.problem);
  expect(
    signWebhook({ key: secret.key, id: VECTOR.id, timestamp: VECTOR.timestamp, body: Buffer.from(VECTOR.payload) }),
  ).toEqual({
    'webhook-id': VECTOR.id,
    'webhook-timestamp': '1614265330',
    'webhook-signature': VECTOR.signature,
  });
});

test.each([
  [undefined, 'signing_secret_env names S, which is not set'],
  ['', 'signing_secret_env names S, which is not set'],
  ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'must start with "whsec_"'],
  ['whsec_not base64!', 'is not valid base64'],
  ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaL', 'is not valid base64'],
  ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2La=', 'is not valid base64'],
  ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2La_-', 'is not valid base64'],
  ['whsec_c2hvcnQ=', 'decodes to 5 bytes; a Standard Webhooks secret has 24 to 64'],
  [`whsec_${Buffer.alloc(65, 1).toString('base64')}`, 'decodes to 65 bytes'],
])('readWebhookSecret refuses %j and never quotes it', (value, expected) => {
  const secret = readWebhookSecret('S', value);
  expect(secret.ok).toBe(false);
  if (secret.ok) return;
  expect(secret.problem).toContain(expected);
  if (value !== undefined && value !== '') expect(secret.problem).not.toContain(value.slice(6, 14));
});

test.each([24, 32, 64, 25])('readWebhookSecret accepts %i-byte secrets, with or without padding', (bytes) => {
  const encoded = Buffer.alloc(bytes, 7).toString('base64');
  for (const value of [encoded, encoded.replace(/=+$/, '')]) {
    const secret = readWebhookSecret('S', `whsec_${value}`);
    expect(secret.ok && secret.key.length).toBe(bytes);
  }
});

let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((_request, response) => {
    response.writeHead(200);
    response.end();
  });
});
afterAll(() => server.close());
afterEach(() => {
  delete process.env['HOOKLINE_TEST_SIGNING'];
});

const signedHook = (extra = '') =>
  httpHook(`${server.origin}/signed`, `tls = "off"\nsigning_secret_env = "HOOKLINE_TEST_SIGNING"\n${extra}`);

test('a signed delivery verifies on the receiving side, over the bytes actually sent', async () => {
  process.env['HOOKLINE_TEST_SIGNING'] = VECTOR.secret;
  const before = server.requests.length;
  const sentAfter = Math.floor(Date.now() / 1000);
  const outcome = await emitOnce(signedHook(), { context: { edge_label: 'ünïcødé ✓' } });
  const sentBefore = Math.ceil(Date.now() / 1000);
  const received = server.requests[before]!;
  expect(outcome.hooks[0]).toMatchObject({ status: 'ok', webhook_id: received.headers['webhook-id'] });
  expect(received.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
  // The timestamp is the time of sending, in whole seconds.
  expect(Number(received.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(sentAfter);
  expect(Number(received.headers['webhook-timestamp'])).toBeLessThanOrEqual(sentBefore);
  expect(received.body.toString('utf8')).toContain('ünïcødé ✓');
  expect(verifyWebhook(VECTOR.secret, received.headers, received.body)).toBe(true);
  // A tampered body, another secret or an old timestamp no longer verify, so the check above is not vacuous.
  expect(
    verifyWebhook(
      VECTOR.secret,
      received.headers,
      Buffer.from(received.body.toString('utf8').replace('build', 'deploy')),
    ),
  ).toBe(false);
  expect(verifyWebhook(`whsec_${Buffer.alloc(24, 9).toString('base64')}`, received.headers, received.body)).toBe(false);
  expect(
    verifyWebhook(VECTOR.secret, { ...received.headers, 'webhook-timestamp': String(VECTOR.timestamp) }, received.body),
  ).toBe(false);
  expect(JSON.stringify(outcome)).not.toContain(VECTOR.secret.slice(6));
});

test('every delivery gets its own webhook-id', async () => {
  process.env['HOOKLINE_TEST_SIGNING'] = VECTOR.secret;
  const before = server.requests.length;
  await emitOnce(signedHook());
  await emitOnce(signedHook());
  const ids = server.requests.slice(before).map((request) => request.headers['webhook-id']);
  expect(ids).toHaveLength(2);
  expect(new Set(ids).size).toBe(2);
});

test('a missing secret fails the hook naming the variable, and sends nothing', async () => {
  const before = server.requests.length;
  const outcome = await emitOnce(signedHook('on_error = "block"'));
  expect(outcome.hooks[0]).toMatchObject({
    status: 'failed',
    error:
      "cannot sign the delivery: signing_secret_env names HOOKLINE_TEST_SIGNING, which is not set; set it to the endpoint's whsec_… secret",
  });
  expect(outcome.decision).toBe('block');
  expect(server.requests.length).toBe(before);
});

test('a malformed secret fails the hook naming the variable, not its value', async () => {
  process.env['HOOKLINE_TEST_SIGNING'] = 'whsec_dG9vLXNob3J0LXNlY3JldA==';
  const outcome = await emitOnce(signedHook());
  expect(outcome.hooks[0]?.status).toBe('failed');
  expect(outcome.hooks[0]?.error).toContain('the value of HOOKLINE_TEST_SIGNING decodes to 16 bytes');
  expect(JSON.stringify(outcome)).not.toContain('dG9vLXNob3J0');
});

test("signing_secret_env must be a variable name, and the signature headers are the runner's", () => {
  const messages = loadError(
    httpHook('https://hooks.example/x', 'signing_secret_env = "MY-SECRET"\nheaders = { webhook-id = "mine" }'),
  ).issues.map((issue) => issue.message);
  expect(messages).toEqual([
    expect.stringContaining('signing_secret_env must name an environment variable'),
    'header `webhook-id` is set by signing (signing_secret_env) and cannot also be set by the hook',
  ]);
});

test('a secret pasted into signing_secret_env is a load error that does not quote it', () => {
  const error = loadError(httpHook('https://hooks.example/x', `signing_secret_env = "${VECTOR.secret}"`));
  expect(error.issues.map((issue) => issue.message)).toEqual([expect.stringContaining('looks like the secret itself')]);
  expect(error.message).not.toContain(VECTOR.secret.slice(6));
});

test('the receiver example in the README is the one tested here, and accepts the specification vector', async () => {
  const headers = {
    'webhook-id': VECTOR.id,
    'webhook-timestamp': String(VECTOR.timestamp),
    'webhook-signature': `v1,bogus ${VECTOR.signature}`,
  };
  expect(verifyWebhook(VECTOR.secret, headers, Buffer.from(VECTOR.payload), Number.MAX_SAFE_INTEGER)).toBe(true);
  expect(
    verifyWebhook(
      VECTOR.secret,
      { ...headers, 'webhook-signature': 'v1,bogus' },
      Buffer.from(VECTOR.payload),
      Number.MAX_SAFE_INTEGER,
    ),
  ).toBe(false);
  const [example, readme] = await Promise.all([
    readFile(new URL('../test-support/verify-webhook.ts', import.meta.url), 'utf8'),
    readFile(new URL('../README.md', import.meta.url), 'utf8'),
  ]);
  expect(readme).toContain(example.trim());
});
