/**
 * Retried deliveries at webhook scale (issue #28's targets), each against a baseline measured in the
 * same run, with the server in its own process:
 *   1. throughput: durable HTTP hooks with `retry` through an SQLite journal — each message journaled
 *      before emit returns, POSTed, its entry cleared — in messages/s, against raw undici POSTs of
 *      the same body to the same server at the same concurrency; target ≥ 0.7×. Two more contenders
 *      in each round say where the gap is: the same hook not durable (no journal, no seal: what the
 *      engine and runner cost on top of raw's POST, a floor for any durable path) and durable
 *      through an in-memory journal (the engine's durable work and the seal, no SQLite);
 *   2. head-of-line: a healthy endpoint's delivery latency (recorded → received, p99) while another
 *      endpoint never answers, against its latency alone, messages recorded at a fixed rate and
 *      delivered by an in-process worker (`resume({ signal })`), PAIRS pairs of runs; target ≤ 2×;
 *   3. memory: a worker's live heap while it delivers from a journal holding 1 000 000 pending
 *      messages, against one holding 1 000; target flat (≤ 1.2×).
 * Ratios are the median of each round's (or pair's) own ratio: the contenders of one round run back to
 * back under the same load, which on a shared machine moves absolute figures several-fold.
 * Run with `pnpm bench` in packages/runner-http (MESSAGES, RATE, SECONDS, PAIRS, PENDING to change sizes).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createHookEngine, loadConfig, type HookEngine } from '@hookline/core';
import { memoryJournal } from '@hookline/core/testing';
import { sqliteJournal } from '@hookline/journal-sqlite';
import { Agent } from 'undici';
import { httpRunner } from '../src/index.ts';
import { quantile } from '../../../scripts/bench-stats.ts';

const MESSAGES = Number(process.env['MESSAGES'] ?? 3_000);
const CONCURRENCY = 8;
const RATE = Number(process.env['RATE'] ?? 50);
const SECONDS = Number(process.env['SECONDS'] ?? 8);
const PENDING = Number(process.env['PENDING'] ?? 1_000_000);
// Head-of-line runs alone and with the hanging endpoint alternate this many times: on a shared machine
// one pair's p99 is mostly the other jobs' doing, so the ratio reported is the median of the pairs'.
const PAIRS = Number(process.env['PAIRS'] ?? 3);

const server = fork(new URL('./delivery-server.ts', import.meta.url), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [{ port }] = (await once(server, 'message')) as [{ port: number }];
const origin = `http://127.0.0.1:${port}`;
const folder = mkdtempSync(join(tmpdir(), 'hookline-delivery-bench-'));
const context = (run: string) => ({ run_id: run, workflow_name: 'bench' });
const hook = (name: string, event: string, path: string, extra = '', durable = true) =>
  `[[hooks]]\nname = "${name}"\nevent = "${event}"\ntype = "http"\nurl = "${origin}${path}"\ntls = "off"\ndurable = ${durable}\nretry = { schedule = "exponential", attempt_timeout = "1s" }\n${extra}\n`;
/** The journal of an engine: an SQLite file at `path`, an in-memory one, or none. */
type JournalChoice = { sqlite: string } | 'memory' | 'none';
const engineFor = (
  toml: string,
  journal: JournalChoice,
  options: { record?: boolean; concurrency?: number; synchronous?: 'full' | 'normal' } = {},
): HookEngine => {
  const runner = httpRunner();
  const config = loadConfig([{ source: 'bench.toml', text: toml }], { runners: [runner] });
  return createHookEngine({
    config,
    runners: [runner],
    ...(journal === 'none'
      ? {}
      : {
          journal:
            journal === 'memory'
              ? memoryJournal()
              : sqliteJournal({ path: journal.sqlite, synchronous: options.synchronous ?? 'full' }),
          journalKey: new Uint8Array(32).fill(9),
        }),
    concurrency: options.concurrency ?? CONCURRENCY,
    ...(options.record === true ? { durableHooks: 'record' as const } : {}),
  });
};
const times = async (): Promise<{ arrivals: Array<[string, number]>; requests: number }> => {
  server.send('times');
  return ((await once(server, 'message')) as [{ arrivals: Array<[string, number]>; requests: number }])[0];
};
const rows: string[] = [];
const row = (...cells: Array<string | number>) => rows.push(`| ${cells.join(' | ')} |`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 1. Throughput. Each run also notes the CPU time this process spent per message (the server runs in
// its own process): a steadier measure than messages/s on a machine whose other jobs come and go.
const cpuPerMessage: Record<'raw' | 'normal' | 'plain' | 'memory', number[]> = {
  raw: [],
  normal: [],
  plain: [],
  memory: [],
};
const cpuMicros = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};
async function rawUndici(count: number): Promise<number> {
  const agent = new Agent({ connections: 32 });
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const run = `raw-${next++}`;
        const response = await agent.request({
          origin,
          path: '/healthy',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'run_complete', ...context(run) }),
        });
        await response.body.dump();
      }
    }),
  );
  const perSecond = count / ((performance.now() - started) / 1000);
  if (count === MESSAGES) cpuPerMessage.raw.push(cpuMicros(cpu) / count);
  await agent.close();
  return perSecond;
}
/** The hook through the engine: durable through SQLite (`full` or `normal`), durable in memory, or plain. */
type Contender = 'full' | 'normal' | 'memory' | 'plain';
async function throughEngine(count: number, contender: Contender): Promise<number> {
  const journal: JournalChoice =
    contender === 'plain'
      ? 'none'
      : contender === 'memory'
        ? 'memory'
        : { sqlite: join(folder, `throughput-${contender}-${Math.random()}.db`) };
  const synchronous = contender === 'full' ? 'full' : 'normal';
  const engine = engineFor(hook('notify', 'run_complete', '/healthy', '', contender !== 'plain'), journal, {
    synchronous,
  });
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  // CONCURRENCY hosts emitting one message after another, each waiting until it is delivered and cleared.
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await (await engine.emit('run_complete', context(`durable-${next++}`))).settled;
    }),
  );
  const perSecond = count / ((performance.now() - started) / 1000);
  if (count === MESSAGES && contender !== 'full') cpuPerMessage[contender].push(cpuMicros(cpu) / count);
  const left = contender === 'plain' ? 0 : (await engine.resume()).ran.length;
  await engine.close();
  if (left !== 0) throw new Error(`${left} entries were left in the journal`);
  return perSecond;
}
// The SQLite journal alone, no engine and no HTTP: CONCURRENCY writers each recording an entry and
// clearing it, one after another, as the durable rounds' hosts do — the journal's share of a message.
async function journalAlone(count: number): Promise<number> {
  const journal = sqliteJournal({ path: join(folder, `alone-${Math.random()}.db`), synchronous: 'normal' });
  const record = { preset: '', event: 'run_complete', hooks: ['notify'], seal: `v1.${'0'.repeat(64)}` };
  let next = 0;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const id = await journal.doRecord({ ...record, context: context(`alone-${next++}`) }, 'bench', 30_000);
        await journal.doComplete(id, 'bench');
      }
    }),
  );
  const micros = cpuMicros(cpu) / count;
  await journal.doClose();
  return micros;
}
await rawUndici(300);
await throughEngine(300, 'normal');
await journalAlone(3_000);
const journalAloneMicros = [await journalAlone(MESSAGES), await journalAlone(MESSAGES)];
const rawRates: number[] = [];
const durableRates: number[] = [];
const normalRates: number[] = [];
const plainRates: number[] = [];
const memoryRates: number[] = [];
for (let round = 0; round < 3; round++) {
  rawRates.push(await rawUndici(MESSAGES));
  normalRates.push(await throughEngine(MESSAGES, 'normal'));
  durableRates.push(await throughEngine(Math.ceil(MESSAGES / 5), 'full'));
  plainRates.push(await throughEngine(MESSAGES, 'plain'));
  memoryRates.push(await throughEngine(MESSAGES, 'memory'));
}
const rawRate = quantile(rawRates, 0.5);
// Each round's contenders ran back to back, under the same load: their ratio is the round's result.
const pairedRatio = (measured: readonly number[]) =>
  quantile(
    measured.map((rate, round) => rate / rawRates[round]!),
    0.5,
  );

// 2. Head-of-line: a healthy endpoint alone, then with a dead one, messages recorded at RATE/s.
async function healthyLatencies(withDead: boolean, pair: number): Promise<number[]> {
  const journal = { sqlite: join(folder, `hol-${withDead}-${pair}.db`) };
  const toml =
    hook('healthy', 'stage_complete', '/healthy-timed') +
    hook('dead', 'run_complete', '/dead', 'endpoint = { max_in_flight = 4 }');
  // synchronous = "normal": this phase measures the worker's scheduling, not the disk's fsync.
  const emitter = engineFor(toml, journal, { record: true, synchronous: 'normal' });
  const worker = engineFor(toml, journal, { concurrency: 16, synchronous: 'normal' });
  const stop = new AbortController();
  const working = worker.resume({ signal: stop.signal, pollMs: 5 });
  const recordedAt = new Map<string, number>();
  const total = RATE * SECONDS;
  const started = performance.now();
  for (let index = 0; index < total; index++) {
    const due = started + (index * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const run = `hol-${withDead}-${pair}-${index}`;
    if (withDead) void emitter.emit('run_complete', context(`${run}-dead`));
    recordedAt.set(run, performance.timeOrigin + performance.now());
    void emitter.emit('stage_complete', context(run));
  }
  const latencies: number[] = [];
  for (let waited = 0; latencies.length < total && waited < 30_000; waited += 200) {
    for (const [run, at] of (await times()).arrivals) latencies.push(at - recordedAt.get(run)!);
    if (latencies.length < total) await sleep(200);
  }
  stop.abort();
  await working;
  await Promise.all([emitter.close(), worker.close()]);
  if (latencies.length < total) throw new Error(`only ${latencies.length} of ${total} healthy messages arrived`);
  return latencies;
}
const solo: number[] = [];
const mixed: number[] = [];
const pairRatios: number[] = [];
for (let pair = 0; pair < PAIRS; pair++) {
  const alone = await healthyLatencies(false, pair);
  const beside = await healthyLatencies(true, pair);
  solo.push(...alone);
  mixed.push(...beside);
  pairRatios.push(quantile(beside, 0.99) / quantile(alone, 0.99));
}
const deadRequests = (await times()).requests;

// 3. Memory with many pending messages.
// Two readings: the peak of the heap in use (garbage included, so it grows with the delivery rate: a
// worker with 1 000 pending runs out of work within the window, one with 1 000 000 does not), and the
// peak of the live heap, read after a full collection every half second — what pending messages
// would fill if they reached the heap.
async function workerHeap(pending: number): Promise<{ peak: number; live: number; delivered: number }> {
  const path = join(folder, `pending-${pending}.db`);
  const emitter = engineFor(hook('notify', 'run_complete', '/healthy'), { sqlite: path }, { record: true });
  await emitter.emit('run_complete', context('seed'));
  await emitter.close();
  // The rest as copies of the first (same seal: the same record), written in one transaction.
  const db = new DatabaseSync(path);
  db.exec(`INSERT INTO hookline_journal (preset, event, context, hooks, created_at, attempts, seal)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${pending - 1})
    SELECT preset, event, context, hooks, created_at, 0, seal FROM hookline_journal, n WHERE hookline_journal.id = 1`);
  db.close();
  globalThis.gc?.();
  const worker = engineFor(hook('notify', 'run_complete', '/healthy'), { sqlite: path });
  let delivered = 0;
  let peak = 0;
  const stop = new AbortController();
  let live = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
  const collector = setInterval(() => {
    globalThis.gc?.();
    live = Math.max(live, process.memoryUsage().heapUsed);
  }, 500);
  const working = worker.resume({ signal: stop.signal, pollMs: 5, onSettled: () => delivered++ });
  await sleep(5_000);
  stop.abort();
  await working;
  clearInterval(sampler);
  clearInterval(collector);
  await worker.close();
  return { peak, live, delivered };
}
const small = await workerHeap(1_000);
const large = await workerHeap(PENDING);

server.send('stop');
rmSync(folder, { recursive: true, force: true });

const p99Solo = quantile(solo, 0.99);
const p99Mixed = quantile(mixed, 0.99);
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
console.log(
  `Node ${process.version}, ${availableParallelism()} CPUs, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}\n`,
);
console.log('| what | baseline | measured | ratio | target |\n| --- | ---: | ---: | ---: | ---: |');
// A throughput row: the contender's median rate against raw undici's, and the median of the rounds' ratios.
const throughputRow = (what: string, rates: readonly number[], target: string) =>
  row(
    what,
    `${rawRate.toFixed(0)} /s`,
    `${quantile(rates, 0.5).toFixed(0)} /s`,
    `${pairedRatio(rates).toFixed(2)}×`,
    target,
  );
throughputRow(
  'durable delivery through SQLite, synchronous = "normal" (retry policy), msg/s — vs raw undici POSTs',
  normalRates,
  '≥ 0.7×',
);
throughputRow('the same with synchronous = "full" (the default: an fsync per record and per clear)', durableRates, '—');
throughputRow('floor: the same hook not durable (no journal, no seal), msg/s — vs raw undici POSTs', plainRates, '—');
throughputRow(
  'the durable hook through an in-memory journal (engine and seal, no SQLite), msg/s — vs raw undici POSTs',
  memoryRates,
  '—',
);
row(
  `healthy endpoint p99, recorded → received, another endpoint hanging — vs alone (${RATE}/s for ${SECONDS} s, ${PAIRS} pairs)`,
  `${p99Solo.toFixed(1)} ms`,
  `${p99Mixed.toFixed(1)} ms`,
  `${quantile(pairRatios, 0.5).toFixed(2)}×`,
  '≤ 2×',
);
row(
  `worker live heap (after a full GC, every 0.5 s) peak over 5 s with ${PENDING.toLocaleString('en')} pending — vs 1 000 pending`,
  mib(small.live),
  mib(large.live),
  `${(large.live / small.live).toFixed(2)}×`,
  '≤ 1.2× (flat)',
);
row(
  `the worker's heap in use, garbage included, peak — the same runs`,
  mib(small.peak),
  mib(large.peak),
  `${(large.peak / small.peak).toFixed(2)}×`,
  '—',
);
console.log(rows.join('\n'));
console.log(
  `\nraw rounds ${rawRates.map((rate) => rate.toFixed(0)).join(', ')}; normal rounds ${normalRates.map((rate) => rate.toFixed(0)).join(', ')}; full rounds ${durableRates.map((rate) => rate.toFixed(0)).join(', ')}`,
);
console.log(
  `plain rounds ${plainRates.map((rate) => rate.toFixed(0)).join(', ')}; in-memory journal rounds ${memoryRates.map((rate) => rate.toFixed(0)).join(', ')}`,
);
const cpuRow = (name: 'normal' | 'plain' | 'memory') =>
  `${name} ${cpuPerMessage[name].map((us) => us.toFixed(1)).join(', ')} (paired: ${cpuPerMessage[name].map((us, round) => (cpuPerMessage.raw[round]! / us).toFixed(2)).join(', ')})`;
console.log(
  `CPU per message in this process (µs, by round): raw ${cpuPerMessage.raw.map((us) => us.toFixed(1)).join(', ')}; ${cpuRow('normal')}; ${cpuRow('plain')}; ${cpuRow('memory')}`,
);
console.log(
  `the SQLite journal alone (record + clear per message, ${CONCURRENCY} writers, no engine, no HTTP): ${journalAloneMicros.map((us) => us.toFixed(1)).join(', ')} µs of CPU per message`,
);
console.log(`head-of-line pairs, p99 beside ÷ alone: ${pairRatios.map((ratio) => ratio.toFixed(2)).join(', ')}`);
console.log(
  `healthy latency median alone ${quantile(solo, 0.5).toFixed(1)} ms, with the dead endpoint ${quantile(mixed, 0.5).toFixed(1)} ms; requests the server saw up to then, all phases ${deadRequests}`,
);
console.log(
  `delivered in the memory runs: ${small.delivered} (1 000 pending), ${large.delivered} (${PENDING} pending)`,
);
