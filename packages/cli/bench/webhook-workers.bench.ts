/**
 * Durable webhook delivery through a PostgreSQL journal with 4 `hookline worker` processes against
 * 1 (issue #28's target: ≥ 2× one worker's messages/s). The entries are recorded first by an engine
 * that only records, as `hookline emit` with `[journal] run = "workers"` does; then N workers drain
 * them, POSTing to a server in this process on 127.0.0.1 that answers 204, and the time from the
 * server's first request to its last is measured, 1 and 4 workers alternating over ROUNDS rounds.
 * Two receivers: one that answers at once (the workers' and the database's CPU is all there is to
 * wait for), and one that answers after LATENCY_MS, as a real receiver on a network does — every
 * worker with the same --concurrency (CONCURRENCY) in both; and, with the slow receiver, one worker
 * with 4× that concurrency, the same number of deliveries in flight as the four.
 *
 *   pnpm -F @hookline/cli... build && node bench/webhook-workers.bench.ts   (needs PostgreSQL's server binaries)
 *   MESSAGES=4000 ROUNDS=3 LATENCY_MS=25 LATENCY_MESSAGES=2000 CONCURRENCY=8 node bench/webhook-workers.bench.ts
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { createHookEngine, loadConfig } from '@hookline/core';
import { postgresJournal } from '@hookline/journal-postgres';
import { httpRunner } from '@hookline/runner-http';
import { findPostgresBinaries, psql, serverUrl, startPostgres } from '../../../scripts/postgres-test-server.ts';
import { quantile } from '../../../scripts/bench-stats.ts';
import { processCpuMs, processTreeCpuMs } from '../../../scripts/process-cpu.ts';
import { finished, makeScratch, startCli } from '../test-support/run-cli.ts';

const MESSAGES = Number(process.env['MESSAGES'] ?? 3_000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 2);
// Deliveries each worker runs at once (`hookline worker --concurrency`), the same for 1 and for 4 workers.
const CONCURRENCY = Number(process.env['CONCURRENCY'] ?? 8);
// How long the slow receiver takes to answer: a receiver across a network, doing its own work first.
const LATENCY_MS = Number(process.env['LATENCY_MS'] ?? 40);
// Fewer messages for the slow receiver: one worker delivers about CONCURRENCY / LATENCY_MS of them a second.
const LATENCY_MESSAGES = Number(process.env['LATENCY_MESSAGES'] ?? 1_200);
const TARGET = 2;

if (findPostgresBinaries() === undefined) {
  console.log('webhook workers benchmark skipped: no PostgreSQL server binaries');
  process.exit(process.env['HOOKLINE_REQUIRE_POSTGRES'] === '1' ? 1 : 0);
}
const postgresServer = await startPostgres();
const postmaster = Number(readFileSync(join(postgresServer.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
const url = serverUrl(postgresServer);
let received = 0;
// From the first request on: the workers' start-up (a second or more of a loaded machine) is not delivery.
let firstAt: number | undefined;
// How long the receiver waits before it answers (set per drain).
let answerAfterMs = 0;
const http = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    firstAt ??= performance.now();
    received++;
    if (answerAfterMs === 0) response.writeHead(204).end();
    else setTimeout(() => response.writeHead(204).end(), answerAfterMs);
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
const keyHex = 'ab'.repeat(32);
// max_in_flight above the most deliveries one worker runs at once (its default, 16 per process and
// URL, would defer the rest of a worker with --concurrency 32); no other limit of the endpoint is set.
const toml = `[journal]\nrun = "workers"\n\n[[hooks]]\nname = "notify"\nevent = "run_complete"\ntype = "http"\nurl = "${origin}/hook"\ntls = "off"\ndurable = true\nretry = "exponential"\nendpoint = { max_in_flight = ${Math.max(16, 4 * CONCURRENCY)} }\n`;
const scratch = makeScratch();
scratch.write('hookline.toml', toml);
const env = { HOOKLINE_JOURNAL: url, HOOKLINE_JOURNAL_KEY: keyHex };

/** CPU milliseconds per message a drain cost, by who spent them. */
interface CpuPerMessage {
  readonly workers: number;
  readonly postgres: number;
  readonly server: number;
}
/** One way of draining: how many workers, each with what --concurrency, to which receiver. */
interface Drain {
  readonly workers: number;
  readonly concurrency: number;
  readonly answerAfterMs: number;
  readonly messages: number;
}
const cpu = new Map<Drain, CpuPerMessage[]>();
// The CPU spent so far by the workers, PostgreSQL (its server and backends) and this process (the HTTP server).
const cpuNow = (workers: readonly ChildProcess[]): CpuPerMessage => ({
  workers: workers.reduce((sum, child) => sum + processCpuMs(child.pid!), 0),
  postgres: processTreeCpuMs(postmaster),
  server: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
});

// One entry recorded and sealed by an engine, kept aside: each drain puts MESSAGES copies of it in
// the journal at once, once the workers are up, so that neither their start-up nor the recording
// is counted.
{
  const runner = httpRunner();
  const recorder = createHookEngine({
    config: loadConfig([{ source: 'bench.toml', text: toml }], { runners: [runner] }),
    runners: [runner],
    journal: postgresJournal({ url }),
    journalKey: Buffer.from(keyHex, 'hex'),
    durableHooks: 'record',
  });
  await recorder.emit('run_complete', { run_id: 'bench', workflow_name: 'bench' });
  await recorder.close();
  psql(postgresServer, 'CREATE TABLE bench_template AS SELECT * FROM hookline_journal; DELETE FROM hookline_journal');
}

async function drain(plan: Drain, round: number): Promise<number> {
  const { workers, messages } = plan;
  received = 0;
  firstAt = undefined;
  answerAfterMs = plan.answerAfterMs;
  const children = Array.from({ length: workers }, () =>
    startCli(['worker', '--concurrency', String(plan.concurrency), '--poll-ms', '100'], { cwd: scratch.path, env }),
  );
  const done = children.map((child) => finished(child));
  // Up: each worker found nothing to do and listens for work.
  const listening = () =>
    Number(psql(postgresServer, "SELECT count(*) FROM pg_stat_activity WHERE query ILIKE 'listen %'").trim());
  while (listening() < workers) await new Promise((resolve) => setTimeout(resolve, 100));
  const before = cpuNow(children);
  psql(
    postgresServer,
    `INSERT INTO hookline_journal (preset, event, context, hooks, attempts, seal) SELECT preset, event, context, hooks, 0, seal FROM bench_template, generate_series(1, ${messages}); SELECT pg_notify('public.hookline_journal', '')`,
  );
  while (received < messages) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - firstAt!) / 1000;
  // The last clears may still be on their way; the workers' and the server's time until now is the drain's.
  const after = cpuNow(children);
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(done);
  if (round >= 0) {
    const spent = cpu.get(plan) ?? [];
    spent.push({
      workers: (after.workers - before.workers) / messages,
      postgres: (after.postgres - before.postgres) / messages,
      server: (after.server - before.server) / messages,
    });
    cpu.set(plan, spent);
  }
  const left = psql(postgresServer, 'SELECT count(*) FROM hookline_journal').trim();
  if (left !== '0') throw new Error(`${left} entries left in the journal`);
  return messages / seconds;
}

const instantOne: Drain = { workers: 1, concurrency: CONCURRENCY, answerAfterMs: 0, messages: MESSAGES };
const instantFour: Drain = { ...instantOne, workers: 4 };
const slowOne: Drain = { workers: 1, concurrency: CONCURRENCY, answerAfterMs: LATENCY_MS, messages: LATENCY_MESSAGES };
const slowFour: Drain = { ...slowOne, workers: 4 };
// One worker with as many deliveries in flight as the four workers together.
const slowOneWide: Drain = { ...slowOne, concurrency: 4 * CONCURRENCY };
const plans = [instantOne, instantFour, slowOne, slowFour, slowOneWide];
const rates = new Map<Drain, number[]>(plans.map((plan) => [plan, []]));
await drain(instantOne, -1); // warm-up: the schema, the CLI's caches
for (let round = 0; round < ROUNDS; round++) for (const plan of plans) rates.get(plan)!.push(await drain(plan, round));
http.close();
postgresServer.stop();
scratch.cleanup();
const rate = (plan: Drain) => quantile(rates.get(plan)!, 0.5);
console.log(
  `Node ${process.version}, ${availableParallelism()} CPUs, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}\n`,
);
console.log('| what | 1 worker | 4 workers | ratio | target |\n| --- | ---: | ---: | ---: | ---: |');
const rateRow = (what: string, one: Drain, four: Drain) =>
  console.log(
    `| ${what} | ${rate(one).toFixed(0)} /s | ${rate(four).toFixed(0)} /s | ${(rate(four) / rate(one)).toFixed(2)}× | ≥ ${TARGET}× |`,
  );
rateRow(
  `durable webhooks through PostgreSQL, receiver answers at once, ${MESSAGES} messages, msg/s (each worker --concurrency ${CONCURRENCY})`,
  instantOne,
  instantFour,
);
rateRow(
  `the same, receiver answers after ${LATENCY_MS} ms, ${LATENCY_MESSAGES} messages (each worker --concurrency ${CONCURRENCY})`,
  slowOne,
  slowFour,
);
console.log(
  `\nOne worker with --concurrency ${4 * CONCURRENCY} (as many in flight as the four), receiver answering after ${LATENCY_MS} ms: ${rate(slowOneWide).toFixed(0)} /s.`,
);
const perMessage = (plan: Drain, part: keyof CpuPerMessage) =>
  quantile(
    cpu.get(plan)!.map((each) => each[part]),
    0.5,
  );
const totalOf = (plan: Drain) =>
  perMessage(plan, 'workers') + perMessage(plan, 'postgres') + perMessage(plan, 'server');
const columns = [instantOne, instantFour, slowOne, slowFour];
console.log(
  `\n| CPU per message (median of the rounds) | 1 worker, at once | 4 workers, at once | 1 worker, ${LATENCY_MS} ms | 4 workers, ${LATENCY_MS} ms |\n| --- | ---: | ---: | ---: | ---: |`,
);
for (const part of ['workers', 'postgres', 'server'] as const)
  console.log(
    `| ${part === 'workers' ? 'worker processes' : part === 'postgres' ? 'PostgreSQL (server and backends)' : 'the HTTP server (this process)'} | ${columns.map((plan) => `${perMessage(plan, part).toFixed(3)} ms`).join(' | ')} |`,
  );
console.log(
  `| all, and the most messages/s ${availableParallelism()} CPUs allow at that cost | ${columns.map((plan) => `${totalOf(plan).toFixed(3)} ms → ${((availableParallelism() * 1000) / totalOf(plan)).toFixed(0)} /s`).join(' | ')} |`,
);
console.log(
  `\nper-worker concurrency ${CONCURRENCY}; rounds (msg/s): ${plans
    .map(
      (plan) =>
        `${plan.workers} worker${plan.workers === 1 ? '' : 's'} × ${plan.concurrency}, ${plan.answerAfterMs === 0 ? 'at once' : `${plan.answerAfterMs} ms`}: ${rates
          .get(plan)!
          .map((each) => each.toFixed(0))
          .join(', ')}`,
    )
    .join('; ')}`,
);
