/**
 * Durable webhook delivery through a PostgreSQL journal with 4 `hookline worker` processes against
 * 1 (issue #28's target: ≥ 2× one worker's messages/s). The entries are recorded first by an engine
 * that only records, as `hookline emit` with `[journal] run = "workers"` does; then N workers drain
 * them, POSTing to a server in this process on 127.0.0.1 that answers 204, and the time from the
 * server's first request to its last is measured, 1 and 4 workers alternating over ROUNDS rounds.
 *
 *   pnpm -F @hookline/cli... build && node bench/webhook-workers.bench.ts   (needs PostgreSQL's server binaries)
 *   MESSAGES=4000 ROUNDS=3 node bench/webhook-workers.bench.ts
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
const http = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    firstAt ??= performance.now();
    received++;
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
const keyHex = 'ab'.repeat(32);
const toml = `[journal]\nrun = "workers"\n\n[[hooks]]\nname = "notify"\nevent = "run_complete"\ntype = "http"\nurl = "${origin}/hook"\ntls = "off"\ndurable = true\nretry = "exponential"\n`;
const scratch = makeScratch();
scratch.write('hookline.toml', toml);
const env = { HOOKLINE_JOURNAL: url, HOOKLINE_JOURNAL_KEY: keyHex };

/** CPU milliseconds per message a drain cost, by who spent them. */
interface CpuPerMessage {
  readonly workers: number;
  readonly postgres: number;
  readonly server: number;
}
const cpu: Record<1 | 4, CpuPerMessage[]> = { 1: [], 4: [] };
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

async function drain(workers: 1 | 4, round: number): Promise<number> {
  received = 0;
  firstAt = undefined;
  const children = Array.from({ length: workers }, () =>
    startCli(['worker', '--concurrency', '8', '--poll-ms', '100'], { cwd: scratch.path, env }),
  );
  const done = children.map((child) => finished(child));
  // Up: each worker found nothing to do and listens for work.
  const listening = () =>
    Number(psql(postgresServer, "SELECT count(*) FROM pg_stat_activity WHERE query ILIKE 'listen %'").trim());
  while (listening() < workers) await new Promise((resolve) => setTimeout(resolve, 100));
  const before = cpuNow(children);
  psql(
    postgresServer,
    `INSERT INTO hookline_journal (preset, event, context, hooks, attempts, seal) SELECT preset, event, context, hooks, 0, seal FROM bench_template, generate_series(1, ${MESSAGES}); SELECT pg_notify('public.hookline_journal', '')`,
  );
  while (received < MESSAGES) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - firstAt!) / 1000;
  // The last clears may still be on their way; the workers' and the server's time until now is the drain's.
  const after = cpuNow(children);
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(done);
  if (round >= 0)
    cpu[workers].push({
      workers: (after.workers - before.workers) / MESSAGES,
      postgres: (after.postgres - before.postgres) / MESSAGES,
      server: (after.server - before.server) / MESSAGES,
    });
  const left = psql(postgresServer, 'SELECT count(*) FROM hookline_journal').trim();
  if (left !== '0') throw new Error(`${left} entries left in the journal`);
  return MESSAGES / seconds;
}

const one: number[] = [];
const four: number[] = [];
await drain(1, -1); // warm-up: the schema, the CLI's caches
for (let round = 0; round < ROUNDS; round++) {
  one.push(await drain(1, round));
  four.push(await drain(4, round));
}
http.close();
postgresServer.stop();
scratch.cleanup();
const [rateOne, rateFour] = [quantile(one, 0.5), quantile(four, 0.5)];
console.log(
  `Node ${process.version}, ${availableParallelism()} CPUs, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}\n`,
);
console.log('| what | 1 worker | 4 workers | ratio | target |\n| --- | ---: | ---: | ---: | ---: |');
console.log(
  `| durable webhooks through PostgreSQL, ${MESSAGES} messages, msg/s (each worker --concurrency 8) | ${rateOne.toFixed(0)} /s | ${rateFour.toFixed(0)} /s | ${(rateFour / rateOne).toFixed(2)}× | ≥ ${TARGET}× |`,
);
const perMessage = (workers: 1 | 4, part: keyof CpuPerMessage) =>
  quantile(
    cpu[workers].map((each) => each[part]),
    0.5,
  );
console.log('\n| CPU per message (median of the rounds) | 1 worker | 4 workers |\n| --- | ---: | ---: |');
for (const part of ['workers', 'postgres', 'server'] as const)
  console.log(
    `| ${part === 'workers' ? 'worker processes' : part === 'postgres' ? 'PostgreSQL (server and backends)' : 'the HTTP server (this process)'} | ${perMessage(1, part).toFixed(3)} ms | ${perMessage(4, part).toFixed(3)} ms |`,
  );
const totalOf = (workers: 1 | 4) =>
  perMessage(workers, 'workers') + perMessage(workers, 'postgres') + perMessage(workers, 'server');
console.log(
  `| all, and the most messages/s ${availableParallelism()} CPUs allow at that cost | ${totalOf(1).toFixed(3)} ms → ${((availableParallelism() * 1000) / totalOf(1)).toFixed(0)} /s | ${totalOf(4).toFixed(3)} ms → ${((availableParallelism() * 1000) / totalOf(4)).toFixed(0)} /s |`,
);
console.log(
  `\nrounds: 1 worker ${one.map((rate) => rate.toFixed(0)).join(', ')}; 4 workers ${four.map((rate) => rate.toFixed(0)).join(', ')}`,
);
