import { createHmac, timingSafeEqual } from 'node:crypto';
import { readWebhookSecret } from './webhook-secret.ts';

/** One received delivery, as a receiver has it: the three Standard Webhooks headers and the raw body. */
export interface ReceivedWebhook {
  /** The `whsec_…` secret the sender signs with. */
  readonly secret: string;
  /** `webhook-id`. */
  readonly id: string;
  /** `webhook-timestamp`: Unix seconds. */
  readonly timestamp: string;
  /** `webhook-signature`: one or more space-separated `v1,<base64>`. */
  readonly signature: string;
  /** The body's exact bytes, before any parsing. */
  readonly body: Uint8Array;
  /** How far the timestamp may be from `now`, in seconds (default 300: older ones are replays). */
  readonly toleranceSeconds?: number;
  /** Unix milliseconds; default `Date.now()`. */
  readonly now?: number;
}

/** Whether a delivery is genuine, and if not, why (never quoting the secret). */
export type WebhookVerdict = { readonly ok: true } | { readonly ok: false; readonly problem: string };

/**
 * Verifies a Standard Webhooks delivery with the reason when it fails: a secret that is not one, a
 * timestamp outside the tolerance (a replay or a wrong clock), or no `v1` signature that matches the
 * HMAC-SHA256 of `{id}.{timestamp}.{body}`. `hookline webhook verify` runs it.
 */
export function verifyWebhookSignature(webhook: ReceivedWebhook): WebhookVerdict {
  const secret = readWebhookSecret('the secret', webhook.secret);
  if (!secret.ok) return { ok: false, problem: secret.problem };
  const timestamp = Number(webhook.timestamp);
  if (!/^\d+$/.test(webhook.timestamp.trim()) || !Number.isSafeInteger(timestamp))
    return { ok: false, problem: `webhook-timestamp ${JSON.stringify(webhook.timestamp)} is not Unix seconds` };
  const tolerance = webhook.toleranceSeconds ?? 300;
  const skew = Math.round((webhook.now ?? Date.now()) / 1000 - timestamp);
  if (Math.abs(skew) > tolerance) {
    return {
      ok: false,
      problem: `webhook-timestamp is ${Math.abs(skew)} s in the ${skew > 0 ? 'past' : 'future'}, beyond the tolerance of ${tolerance} s: a replayed delivery, or a clock that is off`,
    };
  }
  const expected = createHmac('sha256', secret.key)
    .update(`${webhook.id}.${webhook.timestamp.trim()}.`)
    .update(webhook.body)
    .digest();
  const signatures = webhook.signature
    .trim()
    .split(/\s+/)
    .filter((entry) => entry !== '');
  const matches = signatures.some((entry) => {
    const [version, value = ''] = entry.split(',');
    const given = Buffer.from(value, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (matches) return { ok: true };
  if (signatures.length === 0) return { ok: false, problem: 'webhook-signature is empty' };
  return {
    ok: false,
    problem: `no signature in webhook-signature matches: the body was changed, or the secret, id or timestamp differ from the sender's (${signatures.length} signature${signatures.length === 1 ? '' : 's'} checked)`,
  };
}
