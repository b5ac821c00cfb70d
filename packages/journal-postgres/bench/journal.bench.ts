/**
 * What the PostgreSQL journal costs, side by side with the same work done bare with the same client
 * (`postgres`, prepared statements, a pool of 10) on one throwaway server, in one run:
 * (a) recording one entry (held by its recorder; and for workers, with a NOTIFY) vs a bare
 *     `INSERT … RETURNING id` of the same row into a table of the same shape (target ≤ 1.5×);
 * (b) draining entries with 1, 2 and 4 concurrent claimers running no-op work (claim, complete) vs a
 *     bare claim-run-delete loop (`UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED)`, `DELETE`)
 *     with the same concurrency (target ≥ 0.7× the bare throughput);
 * (c) record → claimed latency of an idle claimer woken by NOTIFY (`doWaitForWork`) vs a bare
 *     LISTEN/NOTIFY round trip with the same client, and vs the polling it replaces.
 * The same three through the engine, as `hookline emit`/`run` and `hookline worker` use the journal:
 * `engine.emit` of an event with a durable hook in an engine that only records (`durableHooks:
 * 'record'`) vs the bare `INSERT`; `engine.resume({ concurrency })` draining no-op hooks vs the bare
 * loop with the same concurrency; and record → hook start in an idle `engine.resume({ signal })`.
 * Run with `pnpm -F @hookline/journal-postgres bench` (needs PostgreSQL's server binaries).
 */
import { availableParallelism, loadavg } from 'node:os';
import process from 'node:process';
import postgres from 'postgres';
import { createHookEngine, loadConfig, type EngineObserver, type HookEngine } from '@hookline/core';
import { scriptedRunner } from '@hookline/core/testing';
import { measureInterleaved, quantile } from '../../../scripts/bench-stats.ts';
import { findPostgresBinaries, serverUrl, startPostgres } from '../../../scripts/postgres-test-server.ts';
import { postgresJournal } from '../src/index.ts';

const RECORD_ROUNDS = 400;
const DRAIN_ENTRIES = 2_000;
const DRAIN_ROUNDS = 5;
const WAKE_ROUNDS = 60;
const POLL_MS = 1_000;
const TARGET_RECORD = 1.5;
const TARGET_DRAIN = 0.7;

if (findPostgresBinaries() === undefined) {
  // The root `pnpm bench` runs every package's benchmark; without PostgreSQL this one has nothing to measure.
  console.log('journal-postgres benchmark skipped: no PostgreSQL server binaries in /usr/lib/postgresql/*/bin');
  process.exit(process.env['HOOKLINE_REQUIRE_POSTGRES'] === '1' ? 1 : 0);
}
const server = await startPostgres();
const url = serverUrl(server);
const journal = postgresJournal({ url });
const waiter = postgresJournal({ url });
const bare = postgres(url, { max: 10, onnotice: () => undefined, fetch_types: false });
const record = {
  preset: 'task',
  event: 'after_merge',
  context: { event: 'after_merge', task: 't-1', branch: 'main' },
  hooks: ['after_merge-01'],
};
const ownerPid = process.pid;

// Engines as `hookline emit` (recording only) and `hookline worker` (claiming) build them: preset
// task makes every hook durable; the hook is an in-memory no-op, so what is measured is the engine
// and the journal, not a hook's process.
const runner = scriptedRunner();
const benchKey = crypto.getRandomValues(new Uint8Array(32));
const config = loadConfig(
  [
    {
      text: 'preset = "task"\n[[hooks]]\nname = "noop"\nevent = "after_merge"\ntype = "scripted"\n',
      source: 'bench.toml',
    },
  ],
  { runners: [runner] },
);
const emitContext = { task: 't-1', branch: 'main' };
let hookStartedAt: ((at: number) => void) | undefined;
// Hears when a resumed entry's hook starts, for the record → hook start latency.
const startWatch: EngineObserver = {
  emitStarted: () => ({
    hookStarted: () => void hookStartedAt?.(performance.now()),
    ended: () => undefined,
    failed: () => undefined,
  }),
};
const engineOn = (
  journalOfEngine: typeof journal,
  extra: { durableHooks?: 'record'; observer?: EngineObserver } = {},
): HookEngine =>
  createHookEngine({ config, runners: [runner], journal: journalOfEngine, journalKey: benchKey, ...extra });
// Both engines seal and check as a deployment would: the cost of the HMAC is part of what is measured.
const emitterJournal = postgresJournal({ url });
const workerJournal = postgresJournal({ url });
const emitter = engineOn(emitterJournal, { durableHooks: 'record' });
const worker = engineOn(workerJournal, { observer: startWatch });

try {
  await journal.list(); // makes the tables
  // The bare table has the journal's shape (made by a journal with another prefix), so rows are the same.
  const shape = postgresJournal({ url, tablePrefix: 'bare_' });
  await shape.list();
  await shape.doClose();

  // (a) recording
  const bareInsert = async (): Promise<void> => {
    await bare.unsafe(
      `INSERT INTO public.bare_journal (preset, event, context, hooks, attempts, owner, owner_host, owner_pid, owner_start, lease_until)
       VALUES ($1::text, $2::text, $3::text::json, $4::text::json, 1, $5::text, $6::text, $7::integer, $8::text, now() + $9::float8 * interval '1 millisecond') RETURNING id`,
      [
        record.preset,
        record.event,
        JSON.stringify(record.context),
        JSON.stringify(record.hooks),
        'bench',
        'bench-host',
        ownerPid,
        '1',
        30_000,
      ],
      { prepare: true },
    );
  };
  const recordSamples = await measureInterleaved(
    [
      { name: 'journal.doRecord', run: async () => void (await journal.doRecord(record, 'bench', 30_000)) },
      { name: 'journal.doRecord for workers', run: async () => void (await journal.doRecord(record, 'bench', 0)) },
      {
        name: 'engine.emit, recording for workers',
        run: async () => void (await emitter.emit('after_merge', emitContext)),
      },
      { name: 'bare INSERT', run: bareInsert },
    ],
    { rounds: RECORD_ROUNDS, warmup: 30 },
  );
  await bare.unsafe('TRUNCATE public.hookline_journal, public.bare_journal');

  // (b) draining
  const fill = async (table: string): Promise<void> => {
    await bare.unsafe(
      `INSERT INTO public.${table} (preset, event, context, hooks, attempts) SELECT 'task', 'after_merge', $1::text::json, $2::text::json, 1 FROM generate_series(1, ${DRAIN_ENTRIES})`,
      [JSON.stringify(record.context), JSON.stringify(record.hooks)],
    );
  };
  const drainJournal = async (claimers: number): Promise<number> => {
    await fill('hookline_journal');
    const started = performance.now();
    await Promise.all(
      Array.from({ length: claimers }, async (_, index) => {
        for (
          let entry = await journal.doClaim(`w${index}`, 30_000);
          entry !== undefined;
          entry = await journal.doClaim(`w${index}`, 30_000)
        ) {
          if (!(await journal.doComplete(entry.id, `w${index}`))) throw new Error('lost an entry');
        }
      }),
    );
    return DRAIN_ENTRIES / ((performance.now() - started) / 1_000);
  };
  const drainEngine = async (concurrency: number): Promise<number> => {
    await fill('hookline_journal');
    const started = performance.now();
    const report = await worker.resume({ concurrency });
    if (report.ran.length !== DRAIN_ENTRIES)
      throw new Error(
        `the engine ran ${report.ran.length} of ${DRAIN_ENTRIES} entries: ${JSON.stringify(report.pending[0])}`,
      );
    return DRAIN_ENTRIES / ((performance.now() - started) / 1_000);
  };
  const drainBare = async (claimers: number): Promise<number> => {
    await fill('bare_journal');
    const started = performance.now();
    await Promise.all(
      Array.from({ length: claimers }, async (_, index) => {
        for (;;) {
          const [row] = await bare.unsafe(
            `UPDATE public.bare_journal SET owner = $1::text, lease_until = now() + $2::float8 * interval '1 millisecond', attempts = attempts + 1
             WHERE id = (SELECT id FROM public.bare_journal WHERE dead_at IS NULL AND (owner IS NULL OR lease_until <= now()) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING *`,
            [`w${index}`, 30_000],
            { prepare: true },
          );
          if (row === undefined) return;
          const deleted = await bare.unsafe(
            'DELETE FROM public.bare_journal WHERE id = $1::bigint AND owner = $2::text',
            [row['id'], `w${index}`],
            { prepare: true },
          );
          if (deleted.count !== 1) throw new Error('lost an entry');
        }
      }),
    );
    return DRAIN_ENTRIES / ((performance.now() - started) / 1_000);
  };
  const drains: Array<{ claimers: number; journal: number; engine: number; bare: number }> = [];
  for (const claimers of [1, 2, 4]) {
    const rates = { journal: [] as number[], engine: [] as number[], bare: [] as number[] };
    const contenders = [
      () => drainJournal(claimers).then((rate) => rates.journal.push(rate)),
      () => drainEngine(claimers).then((rate) => rates.engine.push(rate)),
      () => drainBare(claimers).then((rate) => rates.bare.push(rate)),
    ];
    for (let round = 0; round < DRAIN_ROUNDS; round++) {
      // Rotating which goes first spreads drift in the machine's load over all three.
      for (let turn = 0; turn < contenders.length; turn++) await contenders[(round + turn) % contenders.length]!();
    }
    drains.push({
      claimers,
      journal: quantile(rates.journal, 0.5),
      engine: quantile(rates.engine, 0.5),
      bare: quantile(rates.bare, 0.5),
    });
  }

  // (c) wake-up latency
  const wakeSamples: number[] = [];
  await waiter.doWaitForWork(0); // LISTEN starts; the first wait returns at once
  for (let round = 0; round < WAKE_ROUNDS; round++) {
    await new Promise((resolve) => setTimeout(resolve, 20)); // the waiter is idle, waiting
    const woken = (async () => {
      while (await waiter.doWaitForWork(60_000)) {
        const entry = await waiter.doClaim('idle', 30_000);
        if (entry !== undefined) {
          const claimed = performance.now();
          await waiter.doComplete(entry.id, 'idle');
          return claimed;
        }
      }
      throw new Error('the waiter was not woken');
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    await journal.doRecord(record, 'emitter', 0); // lease 0: claimable at once
    wakeSamples.push((await woken) - started);
  }
  const engineWake: number[] = [];
  const stopWorker = new AbortController();
  const working = worker.resume({ signal: stopWorker.signal, pollMs: POLL_MS });
  for (let round = 0; round < WAKE_ROUNDS; round++) {
    await new Promise((resolve) => setTimeout(resolve, 40)); // the worker is idle, waiting
    const hookStarted = new Promise<number>((resolve) => (hookStartedAt = resolve));
    const started = performance.now();
    await emitter.emit('after_merge', emitContext);
    engineWake.push((await hookStarted) - started);
  }
  stopWorker.abort();
  await working;
  const bareWake: number[] = [];
  let heard: (() => void) | undefined;
  await bare.listen('bench_bare', () => heard?.());
  for (let round = 0; round < WAKE_ROUNDS; round++) {
    const got = new Promise<void>((resolve) => (heard = resolve));
    const started = performance.now();
    await bare.notify('bench_bare', '');
    await got;
    bareWake.push(performance.now() - started);
  }

  const median = (name: string): number => quantile(recordSamples.get(name)!, 0.5);
  const p90 = (name: string): number => quantile(recordSamples.get(name)!, 0.9);
  const recordRatio = median('journal.doRecord') / median('bare INSERT');
  const version: unknown = (await bare.unsafe('SHOW server_version'))[0]?.['server_version'];
  const mark = (ok: boolean): string => (ok ? '✓' : '✗');
  console.log(
    `\njournal-postgres — node ${process.version}, ${availableParallelism()} CPUs, PostgreSQL ${String(version)} on 127.0.0.1 (fsync off), load average ${loadavg()[0]!.toFixed(2)} at the end\n`,
  );
  console.log('| measurement | journal | bare baseline | ratio | target |');
  console.log('|---|---:|---:|---:|---|');
  console.log(
    `| record one entry held by its recorder, median (p90) | ${median('journal.doRecord').toFixed(3)} ms (${p90('journal.doRecord').toFixed(3)}) | INSERT ${median('bare INSERT').toFixed(3)} ms (${p90('bare INSERT').toFixed(3)}) | ${recordRatio.toFixed(2)}× | ≤ ${TARGET_RECORD}× ${mark(recordRatio <= TARGET_RECORD)} |`,
  );
  const forWorkers = median('journal.doRecord for workers') / median('bare INSERT');
  console.log(
    `| record one entry for workers (no lease, with NOTIFY), median (p90) | ${median('journal.doRecord for workers').toFixed(3)} ms (${p90('journal.doRecord for workers').toFixed(3)}) | INSERT ${median('bare INSERT').toFixed(3)} ms | ${forWorkers.toFixed(2)}× | ≤ ${TARGET_RECORD}× ${mark(forWorkers <= TARGET_RECORD)} |`,
  );
  const throughEngine = median('engine.emit, recording for workers') / median('bare INSERT');
  console.log(
    `| engine.emit of a durable event, recording for workers, median (p90) | ${median('engine.emit, recording for workers').toFixed(3)} ms (${p90('engine.emit, recording for workers').toFixed(3)}) | INSERT ${median('bare INSERT').toFixed(3)} ms | ${throughEngine.toFixed(2)}× | ≤ ${TARGET_RECORD}× ${mark(throughEngine <= TARGET_RECORD)} |`,
  );
  for (const drain of drains) {
    const claimers = `${drain.claimers} claimer${drain.claimers === 1 ? '' : 's'}`;
    for (const [what, rate] of [
      ['journal: claim, complete', drain.journal],
      ['engine.resume: claim, run the hook, clear', drain.engine],
    ] as const) {
      const ratio = rate / drain.bare;
      console.log(
        `| drain ${DRAIN_ENTRIES} no-op entries, ${claimers} — ${what} | ${rate.toFixed(0)} /s | claim-run-delete ${drain.bare.toFixed(0)} /s | ${ratio.toFixed(2)}× | ≥ ${TARGET_DRAIN}× ${mark(ratio >= TARGET_DRAIN)} |`,
      );
    }
  }
  const wakeMedian = quantile(wakeSamples, 0.5);
  console.log(
    `| record → claimed by an idle waiter (NOTIFY), median (p90) | ${wakeMedian.toFixed(2)} ms (${quantile(wakeSamples, 0.9).toFixed(2)}) | LISTEN/NOTIFY round trip ${quantile(bareWake, 0.5).toFixed(2)} ms (${quantile(bareWake, 0.9).toFixed(2)}) | ${(wakeMedian / quantile(bareWake, 0.5)).toFixed(1)}×; polling every ${POLL_MS} ms waits ${POLL_MS / 2} ms on average | ≤ 50 ms ${mark(wakeMedian <= 50)} |`,
  );
  const engineWakeMedian = quantile(engineWake, 0.5);
  console.log(
    `| engine.emit → the hook starts in an idle engine.resume (NOTIFY), median (p90) | ${engineWakeMedian.toFixed(2)} ms (${quantile(engineWake, 0.9).toFixed(2)}) | LISTEN/NOTIFY round trip ${quantile(bareWake, 0.5).toFixed(2)} ms | ${(engineWakeMedian / quantile(bareWake, 0.5)).toFixed(1)}×; polling every ${POLL_MS} ms waits ${POLL_MS / 2} ms on average | ≤ 50 ms ${mark(engineWakeMedian <= 50)} |`,
  );
  const rising = drains.every((drain, index) => index === 0 || drain.journal >= drains[index - 1]!.journal);
  const engineRising = drains.every((drain, index) => index === 0 || drain.engine >= drains[index - 1]!.engine);
  console.log(
    `\nJournal drain throughput ${rising ? 'rises' : 'does not rise'} with claimers (${drains.map((drain) => drain.journal.toFixed(0)).join(' → ')} /s), the engine's ${engineRising ? 'rises' : 'does not rise'} (${drains.map((drain) => drain.engine.toFixed(0)).join(' → ')} /s), on ${availableParallelism()} CPUs shared with the server.`,
  );
} finally {
  await Promise.all([emitter.close(), worker.close()]); // each closes its journal
  await Promise.all([journal.doClose(), waiter.doClose(), bare.end({ timeout: 5 })]);
  server.stop();
}
