// The webhook soak: the chaos run of src/commands/webhook-chaos.test.ts at the size — 100 000
// durable HTTP deliveries from 2 emitters, 4 `hookline worker` processes SIGKILLed at random every
// 1–2 s and restarted, a flaky endpoint on 127.0.0.1 (30% failures: 500, hangs, 429 + Retry-After) and
// one that turns 410 Gone after about a third of its messages. Prints what happened to every message; exits 1 when one was lost, left
// pending, carried two webhook-ids, or was given up against the policy.
//
//   pnpm -F @hookline/cli... build && pnpm -F @hookline/cli soak:webhooks
//   MESSAGES=10000 pnpm -F @hookline/cli soak:webhooks        (a smaller run)
import { loadavg } from 'node:os';
import process from 'node:process';
import { makeScratch } from '../test-support/run-cli.ts';
import { runWebhookChaos } from '../test-support/webhook-chaos.ts';

const messages = Number(process.env['MESSAGES'] ?? 100_000);
const scratch = makeScratch();
try {
  const report = await runWebhookChaos(scratch, {
    messages,
    workers: 4,
    emitters: 2,
    limitMs: Number(process.env['LIMIT_MS'] ?? 4 * 3_600_000),
    seed: Number(process.env['SEED'] ?? 28),
  });
  console.log(`| measure | value |\n| --- | ---: |`);
  const rows: Array<[string, string | number]> = [
    ['messages', report.messages],
    ['SIGKILLs of a worker', report.kills],
    ['wall time (s)', report.seconds],
    ['messages settled per second', (report.messages / Math.max(1, report.seconds)).toFixed(1)],
    ['requests the endpoints received', report.requests],
    ['delivered (a 2xx)', report.delivered],
    ['dead-lettered', report.deadLettered],
    ['delivered more than once (after a kill)', report.duplicates],
    ['lost', report.lost.length],
    ['run unjournaled by an emitter (must be 0)', report.unjournaled.length],
    ['emitted again: the emit reported the journal busy past its timeout', report.reEmitted.length],
    ['left pending', report.pendingLeft],
    ['messages with two webhook-ids, or ids shared', report.idMismatches.length],
    ['dead letters against the policy', report.policyViolations.length],
    ['delivered to the gone endpoint after its 410', report.deliveredAfterGone],
  ];
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  for (const problem of [
    ...report.lost.slice(0, 5),
    ...report.idMismatches.slice(0, 5),
    ...report.policyViolations.slice(0, 5),
  ])
    console.log(`  ${problem}`);
  process.exitCode =
    report.lost.length + report.pendingLeft + report.idMismatches.length + report.policyViolations.length === 0 ? 0 : 1;
} finally {
  scratch.cleanup();
}
