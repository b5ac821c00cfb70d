import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a Standard Webhooks delivery on the receiving side. Call it with the raw body bytes,
 * before any JSON parsing, and reject the request when it returns false.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  toleranceSeconds = 300,
): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = Number(headers['webhook-timestamp']);
  // A stale or future timestamp is a replay, whatever the signature says.
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  // The header may list several space-separated signatures (during a secret rotation).
  return String(headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, signature = ''] = entry.split(',');
      const given = Buffer.from(signature, 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
