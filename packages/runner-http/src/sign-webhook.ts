import { createHmac, randomUUID } from 'node:crypto';

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
export function signWebhook(input: WebhookSignatureInput): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = String(input.timestamp);
  const signature = createHmac('sha256', input.key).update(`${input.id}.${timestamp}.`).update(input.body).digest('base64');
  return { 'webhook-id': input.id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

/** A fresh delivery id: `msg_` and 32 hex digits, unique per delivery. */
export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}
