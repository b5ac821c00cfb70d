import { expect, test } from 'vitest';
import { hookEndAttributes } from './span-attributes.ts';

test("a retried delivery's span says which attempt it is, its message id and what comes next", () => {
  const report = {
    name: 'notify',
    type: 'http',
    blocking: false,
    status: 'failed' as const,
    error: '503',
    http_status: 503,
    delivery_attempt: 2,
    webhook_id: 'msg_ab',
    delivery: { next: 'retry', afterMs: 5_000, counted: true, reason: '503' },
  };
  expect(hookEndAttributes(report)).toMatchObject({
    'http.response.status_code': 503,
    'hookline.delivery.attempt': 2,
    'hookline.delivery.message_id': 'msg_ab',
    'hookline.delivery.next': 'retry',
    'hookline.delivery.retry_after_ms': 5_000,
    'error.type': 'failed',
  });
  expect(
    hookEndAttributes({ ...report, delivery: { next: 'retry', afterMs: 100, counted: false, reason: 'rate limited' } })[
      'hookline.delivery.next'
    ],
  ).toBe('deferred');
  expect(
    hookEndAttributes({ ...report, delivery: { next: 'dead', reason: 'gone', disable: true } })[
      'hookline.delivery.next'
    ],
  ).toBe('dead');
  expect(hookEndAttributes({ name: 'x', type: 'command', blocking: false, status: 'ok' })).not.toHaveProperty(
    'hookline.delivery.next',
  );
});
