/**
 * What an HTTP hook costs on top of the HTTP request itself: a blocking `type = "http"` hook through
 * the whole engine (`emit`, selection, deadline, runner, response parsing, merge) against a raw
 * undici request to the same loopback server, which answers 200 with an empty body. The two
 * alternate call by call (ABBA order) so drift in the machine or the server hits both alike.
 * Run with `pnpm bench` in packages/runner-http.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createHookEngine, loadConfig } from '@hookline/core';
import { Agent } from 'undici';
import { httpRunner } from '../src/index.ts';
import { formatMicros, summarize, type Summary } from '../../../scripts/bench-stats.ts';

const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 5_000);
const WARMUP = 500;
/** Target: the hook within this factor of the raw request (medians). */
const TARGET = 1.2;

const server = fork(new URL('./loopback-server.ts', import.meta.url), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [{ port }] = (await once(server, 'message')) as [{ port: number }];
const origin = `http://127.0.0.1:${port}`;
const context = { run_id: 'bench-run', workflow_name: 'bench', node_id: 'build' };
const contextJson = JSON.stringify({ event: 'stage_start', ...context });

const runner = httpRunner();
const config = loadConfig(
  [
    {
      source: 'bench.toml',
      text: `[[hooks]]\nname = "bench"\nevent = "stage_start"\ntype = "http"\nurl = "${origin}/hook"\ntls = "off"\n`,
    },
  ],
  { runners: [runner] },
);
const engine = createHookEngine({ config, runners: [runner] });
// The raw contender: the same client library, keep-alive pool and request as the runner sends.
const agent = new Agent({ connections: 32, keepAliveTimeout: 4_000, pipelining: 1 });

async function hook(): Promise<void> {
  const outcome = await engine.emit('stage_start', context);
  if (outcome.hooks[0]?.status !== 'ok') throw new Error(`hook failed: ${JSON.stringify(outcome.hooks[0])}`);
}

async function raw(): Promise<void> {
  const response = await agent.request({
    origin,
    path: '/hook',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'hookline-runner-http' },
    body: Buffer.from(contextJson, 'utf8'),
  });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`raw request answered ${response.statusCode}`);
}

const contenders = [
  { name: 'raw undici request', call: raw, times: [] as number[] },
  { name: 'http hook via engine.emit', call: hook, times: [] as number[] },
];

for (let index = 0; index < WARMUP; index++) for (const contender of contenders) await contender.call();
for (let index = 0; index < SAMPLES; index++) {
  // ABBA: which contender goes first alternates every call.
  const order = index % 2 === 0 ? contenders : [...contenders].reverse();
  for (const contender of order) {
    const started = performance.now();
    await contender.call();
    contender.times.push(performance.now() - started);
  }
}

server.send('stats');
const [{ accepted }] = (await once(server, 'message')) as [{ accepted: number }];
await engine.close();
await agent.close();
server.send('stop');

const rows = contenders.map((contender) => summarize(contender.name, contender.times));
const [rawRow, hookRow] = rows as [Summary, Summary];
const ratio = hookRow.median / rawRow.median;
console.log(
  `Node ${process.versions.node}, ${process.platform}/${process.arch}; ${SAMPLES} alternating samples each after ${WARMUP} warm-up; server in a separate process on 127.0.0.1 (${accepted} connections accepted in all).`,
);
console.log('');
console.log('| contender | median | p90 | p99 | mean | samples |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows)
  console.log(
    `| ${row.name} | ${formatMicros(row.median)} | ${formatMicros(row.p90)} | ${formatMicros(row.p99)} | ${formatMicros(row.mean)} | ${row.samples} |`,
  );
console.log('');
console.log(
  `hook ÷ raw (medians): ${ratio.toFixed(3)}× (+${formatMicros(hookRow.median - rawRow.median)} per hook) — target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'NOT met'}`,
);
