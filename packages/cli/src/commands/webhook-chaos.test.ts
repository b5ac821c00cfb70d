import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, type Scratch } from '../../test-support/run-cli.ts';
import { runWebhookChaos } from '../../test-support/webhook-chaos.ts';

// Chaos for retried webhooks: 4 `hookline worker` processes, one SIGKILLed and restarted at random
// every 1–2 s, deliver durable HTTP hooks to a flaky endpoint on 127.0.0.1 (30% failures: 500s,
// hangs, 429 with Retry-After) and to one that turns 410 Gone. Every message must be delivered or
// dead-lettered as the policy says, none lost, every request of one message with one webhook-id.
//
// HOOKLINE_WEBHOOK_CHAOS_MESSAGES=N changes the count (default 100; the soak script,
// bench/webhook-soak.bench.ts, runs the 100 000).

const messages = Number(process.env['HOOKLINE_WEBHOOK_CHAOS_MESSAGES'] ?? 100);

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test(`${messages} webhooks, 4 workers SIGKILLed at random: every message delivered or dead-lettered by the policy, none lost, one webhook-id per message`, async () => {
  const report = await runWebhookChaos(scratch, { messages, workers: 4, emitters: 2, limitMs: 60_000, seed: 28 });
  console.log(
    `webhook chaos: ${report.messages} messages, ${report.kills} SIGKILLs, ${report.seconds} s, ${report.requests} requests: ${report.delivered} delivered, ` +
      `${report.deadLettered} dead-lettered, ${report.lost.length} lost, ${report.unjournaled.length} run unjournaled, ${report.reEmitted.length} emitted again (journal busy), ${report.duplicates} delivered twice, ${report.pendingLeft} left pending`,
  );
  expect(report.lost).toEqual([]);
  expect(report.unjournaled).toEqual([]);
  expect(report.pendingLeft).toBe(0);
  expect(report.idMismatches).toEqual([]);
  expect(report.policyViolations).toEqual([]);
  // The gone endpoint's 410 disabled it for every worker (a delivery already in flight may still land).
  expect(report.gone).toBe(true);
  expect(report.deliveredAfterGone).toBeLessThanOrEqual(4 * 8);
  expect(report.deadLettered).toBeGreaterThan(0);
  expect(report.kills).toBeGreaterThan(0);
  // Duplicates are allowed only because workers were killed mid-delivery.
  if (report.duplicates > 0) expect(report.kills).toBeGreaterThan(0);
  expect(report.delivered + report.deadLettered).toBeGreaterThanOrEqual(report.messages);
}, 150_000);
