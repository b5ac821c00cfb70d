import { createHash, createHmac, randomUUID } from 'node:crypto';

/** What identifies and authenticates one delivery. */
export interface WebhookSignatureInput {
  /** The HMAC key: the secret's base64 part, decoded. */
  readonly key: Uint8Array;
  readonly id: string;
  /** Unix time in seconds. */
  readonly timestamp: number;
  /** The exact bytes sent as the request body. */
  readonly body: Uint8Array;
}

/**
 * The Standard Webhooks headers for one delivery: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. The HMAC runs over the
 * body's bytes, not a re-serialisation, so what is signed is exactly what is sent.
 */
export function signWebhook(
  input: WebhookSignatureInput,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = String(input.timestamp);
  const signature = createHmac('sha256', input.key)
    .update(`${input.id}.${timestamp}.`)
    .update(input.body)
    .digest('base64');
  return { 'webhook-id': input.id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

/** A fresh delivery id: `msg_` and 32 hex digits, unique per delivery. */
export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/**
 * The id of a message that is retried: `msg_` and 32 hex digits of a SHA-256 over the engine's
 * message key (journal, entry, hook) and the body, so every attempt of one message carries the same
 * `webhook-id` — receivers deduplicate by it — and no two messages share one.
 */
export function stableWebhookId(messageKey: string, body: Uint8Array): string {
  return `msg_${createHash('sha256').update(messageKey).update('\u0000').update(body).digest('hex').slice(0, 32)}`;
}
