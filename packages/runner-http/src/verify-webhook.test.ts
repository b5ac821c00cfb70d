import { expect, test } from 'vitest';
import { signWebhook } from './sign-webhook.ts';
import { verifyWebhookSignature } from './verify-webhook.ts';
import { readWebhookSecret } from './webhook-secret.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = Buffer.from('{"event":"run_complete","run_id":"r-1"}');
const key = (readWebhookSecret('S', SECRET) as { ok: true; key: Uint8Array }).key;
const signed = signWebhook({ key, id: 'msg_1', timestamp: 1_700_000_000, body });
const delivery = {
  secret: SECRET,
  id: 'msg_1',
  timestamp: signed['webhook-timestamp'],
  signature: signed['webhook-signature'],
  body,
  now: 1_700_000_000_000,
};

test('a genuine delivery verifies, also among other signatures (a secret rotation)', () => {
  expect(verifyWebhookSignature(delivery)).toEqual({ ok: true });
  expect(
    verifyWebhookSignature({ ...delivery, signature: `v1,c29tZXRoaW5nIGVsc2U= ${signed['webhook-signature']}` }),
  ).toEqual({ ok: true });
});

test.each([
  ['a changed body', { body: Buffer.from('{"event":"run_failed"}') }, 'no signature in webhook-signature matches'],
  ['another id', { id: 'msg_2' }, 'no signature in webhook-signature matches'],
  [
    'a stale timestamp',
    { now: 1_700_000_000_000 + 301_000 },
    'webhook-timestamp is 301 s in the past, beyond the tolerance of 300 s',
  ],
  ['a timestamp that is not a number', { timestamp: 'yesterday' }, 'is not Unix seconds'],
  ['no signature', { signature: ' ' }, 'webhook-signature is empty'],
  ['a secret without whsec_', { secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, 'must start with "whsec_"'],
])('%s is refused with the reason', (_name, change, problem) => {
  const verdict = verifyWebhookSignature({ ...delivery, ...change });
  expect(verdict.ok).toBe(false);
  expect(verdict.ok ? '' : verdict.problem).toContain(problem);
  expect(verdict.ok ? '' : verdict.problem).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
});
