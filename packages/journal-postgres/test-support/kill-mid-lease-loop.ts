// The smallest reproduction of the chaos test's suspect path, run many times: one claimer process (the
// chaos test's own worker, test-support/chaos-worker.ts) claims an entry, runs it and completes it, and
// is SIGKILLed at a random moment of that cycle — before its claim, mid-run, between its DELETE and its
// `done` line, or after. A second claimer (this process) then takes whatever is left. After each run
// the journal must be empty, nothing dead-lettered, and the entry must have been run to its end by one
// of the two: an entry that is gone with no run that reached its end is lost.
//
//   node ../../scripts/postgres-test-server.ts node test-support/kill-mid-lease-loop.ts [runs] [lanes]
//
// Prints how often each moment was hit, and how many runs ended with the entry completed but no
// `done` line: what the chaos test counted as lost before it counted runs that reached their end.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { postgresJournal } from '../src/postgres-journal.ts';

const RUNS = Number(process.argv[2] ?? 1_000);
const LANES = Number(process.argv[3] ?? 2);
// The whole loop is bounded: it stops (and says so) if the machine is too slow to finish in time.
const GIVE_UP_AFTER_MS = 25 * 60_000;
// The worker sleeps 100 ms between its `start` and `end` lines; the kill lands uniformly in this many
// ms after `start`, which covers the run, the DELETE and the `done` line.
const KILL_WINDOW_MS = 140;
const url = process.env['HOOKLINE_TEST_POSTGRES_URL'];
if (url === undefined)
  throw new Error('run me through scripts/postgres-test-server.ts, which sets HOOKLINE_TEST_POSTGRES_URL');
const worker = fileURLToPath(new URL('chaos-worker.ts', import.meta.url));

type Moment = 'before start' | 'mid-run' | 'after end, not cleared' | 'cleared, no done line' | 'after done';
const moments = new Map<Moment, number>();
const problems: string[] = [];
let finished = 0;
const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function lane(index: number, runs: number): Promise<void> {
  const admin = postgres(url!, { max: 1, onnotice: () => undefined });
  const database = `kill_loop_${index}`;
  await admin.unsafe(`DROP DATABASE IF EXISTS ${database}`);
  await admin.unsafe(`CREATE DATABASE ${database}`);
  await admin.end();
  const laneUrl = url!.replace(/\/[^/?]*(\?|$)/, `/${database}$1`);
  const journal = postgresJournal({ url: laneUrl });
  const directory = mkdtempSync(join(tmpdir(), 'hookline-kill-loop-'));
  try {
    for (let run = 0; run < runs && Date.now() < giveUpAt; run++) {
      const log = join(directory, `run-${run}.log`);
      writeFileSync(log, '');
      const id = await journal.doRecord(
        { preset: 'task', event: 'after_merge', context: { event: 'after_merge', task: `t-${run}` }, hooks: ['a'] },
        'emitter',
        0,
      );
      const child = spawn(process.execPath, [worker, laneUrl, log, 'killed'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Wait for the worker's `start` line (or give up on it after 20 s: then it dies before its claim).
      for (const until = Date.now() + 20_000; !readFileSync(log, 'utf8').startsWith('start ') && Date.now() < until;)
        await sleep(1);
      await sleep(Math.random() * KILL_WINDOW_MS);
      child.kill('SIGKILL');
      await exited;

      const lines = readFileSync(log, 'utf8');
      const has = (kind: string): boolean => lines.split('\n').some((line) => line.startsWith(`${kind} ${id} `));
      const left = await journal.list();
      let moment: Moment;
      if (left.length === 0) {
        moment = has('done') ? 'after done' : 'cleared, no done line';
        if (!has('end'))
          problems.push(
            `run ${run}: entry ${id} is gone, but no run of it reached its end: LOST (log: ${JSON.stringify(lines)})`,
          );
      } else {
        moment = !has('start') ? 'before start' : has('end') ? 'after end, not cleared' : 'mid-run';
        // The survivor: reclaims the dead holder's entry (at once, or when its lease ends) and completes it.
        let entry;
        for (const until = Date.now() + 20_000; entry === undefined && Date.now() < until;) {
          entry = await journal.doClaim('survivor', 3_000);
          if (entry === undefined) await journal.doWaitForWork(100);
        }
        if (entry?.id !== id)
          problems.push(`run ${run}: the survivor could not claim entry ${id} (got ${JSON.stringify(entry?.id)})`);
        else if (!(await journal.doComplete(id, 'survivor')))
          problems.push(`run ${run}: the survivor could not complete entry ${id}`);
      }
      moments.set(moment, (moments.get(moment) ?? 0) + 1);
      const stats = await journal.stats();
      if (stats.pending + stats.leased + stats.deadLettered !== 0)
        problems.push(`run ${run}: the journal is not empty after the run: ${JSON.stringify(stats)}`);
      finished++;
      if (finished % 100 === 0)
        console.log(`${finished} runs, ${problems.length} problems, ${JSON.stringify(Object.fromEntries(moments))}`);
    }
  } finally {
    await journal.doClose();
    rmSync(directory, { recursive: true, force: true });
  }
}

const started = Date.now();
const perLane = Math.ceil(RUNS / LANES);
await Promise.all(Array.from({ length: LANES }, (_, index) => lane(index, Math.min(perLane, RUNS - index * perLane))));
const summary = `${finished} of ${RUNS} runs in ${Math.round((Date.now() - started) / 1000)} s; killed: ${JSON.stringify(Object.fromEntries(moments))}; ${problems.length} problems`;
console.log(summary);
for (const problem of problems) console.log(problem);
appendFileSync(process.env['KILL_LOOP_SUMMARY'] ?? '/dev/null', `${summary}\n`);
process.exitCode = problems.length === 0 && finished === RUNS ? 0 : 1;
