import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { sqliteJournal } from '@hookline/journal-sqlite';
import { CHAOS_HOOK, checkChaosRuns } from '../../test-support/chaos-runs.ts';
import { finished, makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';
import { usePostgres } from '../../test-support/use-postgres.ts';

// Chaos: emitters record durable events while `hookline worker` processes run them, and one worker is
// killed with SIGKILL and restarted every ~2 s. Every event's hook must run at least once, no two runs
// of one entry may overlap, and the journal must end empty; duplicate runs are counted and reported.
//
// The sizes are the in CI. On a shared development machine HOOKLINE_CHAOS_EVENTS=N scales the
// number of events down (the CI size is kept whenever CI=true).

const postgres = usePostgres('worker-chaos.test.ts');
const scaled = process.env['CI'] === 'true' ? undefined : Number(process.env['HOOKLINE_CHAOS_EVENTS'] ?? Number.NaN);
const size = (ci: number): number =>
  scaled !== undefined && Number.isInteger(scaled) && scaled > 0 ? Math.min(ci, scaled) : ci;
// The kill-and-restart phase ends when every event ran, or after this long (the test then fails).
const CHAOS_MS = 80_000;

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

interface Chaos {
  readonly env: Record<string, string>;
  readonly events: number;
  readonly emitters: number;
  readonly workers: number;
  /** Entries left in the journal; -1 before it exists. */
  readonly left: () => Promise<number>;
}

async function runChaos(chaos: Chaos): Promise<void> {
  scratch.write(
    'hookline.toml',
    `preset = "task"\n\n[journal]\nrun = "workers"\nlease_ms = 5000\n\n[hooks]\nafter_merge = [${JSON.stringify(CHAOS_HOOK)}]\n`,
  );
  const { env } = chaos;
  const started = Date.now();
  const startWorker = (): { child: ChildProcess; done: Promise<unknown> } => {
    const child = startCli(['worker', '--concurrency', '4', '--poll-ms', '200'], { cwd: scratch.path, env });
    return { child, done: finished(child) };
  };
  const workers = Array.from({ length: chaos.workers }, startWorker);
  // Emitters: `hookline run` fed JSON lines, recording only ([journal] run = "workers").
  const perEmitter = Math.ceil(chaos.events / chaos.emitters);
  const tasks = Array.from({ length: chaos.emitters }, (_, emitter) =>
    Array.from({ length: perEmitter }, (_, index) => `e${emitter}-${index}`),
  );
  let emitted = false;
  const emitting = Promise.all(
    tasks.map((list) =>
      runCli(['run'], {
        cwd: scratch.path,
        env,
        input: `${list.map((task) => JSON.stringify({ event: 'after_merge', task })).join('\n')}\n`,
      }),
    ),
  ).then((results) => {
    emitted = true;
    return results;
  });
  let kills = 0;
  const deadline = Date.now() + CHAOS_MS;
  for (let round = 0; Date.now() < deadline; round++) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (emitted && (await chaos.left()) === 0) break;
    const slot = round % workers.length;
    workers[slot]!.child.kill('SIGKILL');
    await workers[slot]!.done;
    kills++;
    workers[slot] = startWorker();
  }
  for (const result of await emitting) expect(result.code, result.stderr).toBe(0);
  const left = await chaos.left();
  for (const worker of workers) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.done));

  const read = (file: string): string =>
    existsSync(join(scratch.path, file)) ? readFileSync(join(scratch.path, file), 'utf8') : '';
  const report = checkChaosRuns(tasks.flat(), read('runs.log'), read('overlaps.log'));
  console.log(
    `chaos: ${tasks.flat().length} events, ${chaos.emitters} emitters, ${chaos.workers} workers, ${kills} SIGKILLs in ${Math.round((Date.now() - started) / 1000)} s: ` +
      `${report.lost.length} lost, ${report.duplicates} duplicate runs, ${report.overlaps.length} overlaps, ${left} left in the journal`,
  );
  expect(report.lost).toEqual([]);
  expect(report.overlaps).toEqual([]);
  expect(left).toBe(0);
  expect(kills).toBeGreaterThan(0);
}

describe.skipIf(!postgres.available)('PostgreSQL', () => {
  test('2 emitters, 2 000 durable events, 3 workers, one SIGKILLed and restarted every ~2 s: 0 lost, no overlap, journal empty', async () => {
    await runChaos({
      env: { HOOKLINE_JOURNAL: postgres.database('chaos') },
      events: size(2_000),
      emitters: 2,
      workers: 3,
      left: async () => Number(postgres.sql('chaos', 'SELECT count(*) FROM hookline_journal').trim() || '-1'),
    });
  }, 150_000);
});

test('SQLite: 2 emitters, 300 durable events, 2 workers on one machine, one SIGKILLed and restarted every ~2 s: 0 lost, no overlap, journal empty', async () => {
  const path = join(scratch.path, '.hookline', 'journal.db');
  await runChaos({
    env: {},
    events: size(300),
    emitters: 2,
    workers: 2,
    left: async () => {
      if (!existsSync(path)) return -1;
      const journal = sqliteJournal({ path });
      try {
        return (await journal.list()).length;
      } finally {
        await journal.doClose?.();
      }
    },
  });
}, 150_000);
