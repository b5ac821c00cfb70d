import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { findPostgresBinaries, TEST_PASSWORD } from '../../../../scripts/postgres-test-server.ts';
import { waitFor } from '../../test-support/processes.ts';
import { finished, makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';
import { usePostgres } from '../../test-support/use-postgres.ts';

// `hookline worker` and `hookline journal` against a real PostgreSQL server, and against SQLite.

const postgres = usePostgres('worker.test.ts');
let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const lines = (file: string): string[] =>
  existsSync(join(scratch.path, file))
    ? readFileSync(join(scratch.path, file), 'utf8').split('\n').filter(Boolean)
    : [];
/** Another psql session holds `LOCK TABLE … IN EXCLUSIVE MODE` (writes wait) until released. */
async function holdTableLock(url: string, table: string): Promise<{ release(): Promise<void> }> {
  const psql = spawn(join(findPostgresBinaries()!, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const closed = new Promise<void>((resolve) => psql.once('close', () => resolve()));
  psql.stdin.write(`BEGIN;\nLOCK TABLE ${table} IN EXCLUSIVE MODE;\n\\echo locked\n`);
  await new Promise<void>((resolve, reject) => {
    let text = '';
    psql.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('locked')) resolve();
    });
    void closed.then(() => reject(new Error(`psql ended before it took the lock: ${text}`)));
  });
  return {
    async release() {
      psql.stdin.end('ROLLBACK;\n');
      await closed;
    },
  };
}

const CONFIG = `preset = "task"\n\n[journal]\nrun = "workers"\n\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> ran.txt']\n`;

async function emitAndWork(env: Record<string, string>): Promise<void> {
  scratch.write('hookline.toml', CONFIG);
  // Emitters only record: the hook is reported skipped, and nothing ran.
  for (const task of ['t-1', 't-2', 't-3']) {
    const emitted = await runCli(['emit', 'after_merge', '--set', `task=${task}`, '--json'], {
      cwd: scratch.path,
      env,
    });
    expect(emitted.code, emitted.stderr).toBe(0);
    expect(JSON.parse(emitted.stdout)).toMatchObject({
      hooks: [{ status: 'skipped', skipped_because: 'recorded in the journal for a worker to run' }],
    });
  }
  expect(lines('ran.txt')).toEqual([]);
  const stats = await runCli(['journal', 'stats', '--json'], { cwd: scratch.path, env });
  expect(JSON.parse(stats.stdout)).toMatchObject({ pending: 3, leased: 0, dead_lettered: 0 });
  const listed = await runCli(['journal', 'ls'], { cwd: scratch.path, env });
  expect(listed.stdout).toContain('after_merge  pending');

  const worker = startCli(['worker', '--concurrency', '2', '--json', '--poll-ms', '200'], { cwd: scratch.path, env });
  const done = finished(worker);
  await waitFor('the worker to run the three entries', () => lines('ran.txt').length === 3);
  // Recorded while the worker idles: it wakes and runs it.
  await runCli(['emit', 'after_merge', '--set', 'task=t-4'], { cwd: scratch.path, env });
  await waitFor('the worker to run the fourth entry', () => lines('ran.txt').length === 4);
  worker.kill('SIGTERM');
  const result = await done;
  expect(result.code, result.stderr).toBe(0);
  const events = result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(events.filter((event) => event['type'] === 'ran')).toHaveLength(4);
  expect(events.at(-1)).toMatchObject({
    type: 'stopped',
    signal: 'SIGTERM',
    claimed: 4,
    ran: 4,
    failed: 0,
    released: 0,
  });
  expect(result.stderr).toContain('hookline worker: stopped (SIGTERM): claimed 4, ran 4, failed 0, released 0');
  expect([...lines('ran.txt')].sort()).toEqual(['t-1', 't-2', 't-3', 't-4']);
  expect((await runCli(['journal', 'ls'], { cwd: scratch.path, env })).stdout).toBe('the journal is empty\n');
}

test('SQLite: emitters record, `hookline worker` runs them, SIGTERM stops it with exit 0', async () => {
  await emitAndWork({});
}, 90_000);

describe.skipIf(!postgres.available)('PostgreSQL', () => {
  test('HOOKLINE_JOURNAL=postgres://…: emitters record, `hookline worker` runs them (woken by NOTIFY), SIGTERM stops it with exit 0', async () => {
    await emitAndWork({ HOOKLINE_JOURNAL: postgres.database('worker_flow') });
  }, 90_000);

  test('SIGTERM with a hook in flight: it finishes within the grace period; past it, its entry is released for another worker', async () => {
    const url = postgres.database('worker_grace');
    scratch.write(
      'hookline.toml',
      `preset = "task"\n\n[journal]\nurl = "${url}"\nrun = "workers"\n\n[hooks]\nafter_merge = ['echo start >> runs.txt; sleep 5; echo end >> runs.txt']\n`,
    );
    await runCli(['emit', 'after_merge', '--set', 'task=t-1'], { cwd: scratch.path });
    const worker = startCli(['worker', '--grace-ms', '300', '--json'], { cwd: scratch.path });
    const done = finished(worker);
    await waitFor('the hook to start', () => lines('runs.txt').length === 1);
    worker.kill('SIGTERM');
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"type":"released"');
    const listed = JSON.parse((await runCli(['journal', 'ls', '--json'], { cwd: scratch.path })).stdout) as Array<
      Record<string, unknown>
    >;
    expect(listed).toMatchObject([
      { state: 'pending', lastError: 'the engine closed before the durable hooks ended', attempts: 2 },
    ]);
  }, 90_000);

  test('a poisoned entry is dead-lettered after max_attempts, listed, and retried by `hookline journal retry`', async () => {
    const url = postgres.database('worker_dead');
    // The hook kills its own worker: the entry never clears. Recording counts as the first attempt.
    scratch.write(
      'hookline.toml',
      `preset = "task"\n\n[journal]\nurl = "${url}"\nrun = "workers"\nmax_attempts = 3\n\n[hooks]\nafter_merge = ['echo try >> tries.txt; [ -f healed ] || kill -9 $PPID']\n`,
    );
    await runCli(['emit', 'after_merge', '--set', 'task=t-1'], { cwd: scratch.path });
    for (let round = 0; round < 2; round++) {
      const worker = startCli(['worker', '--poll-ms', '100'], { cwd: scratch.path });
      const done = finished(worker);
      await waitFor(`try ${round + 1}`, () => lines('tries.txt').length === round + 1);
      await done;
    }
    // A third worker finds the entry out of attempts: dead-lettered, not run.
    const third = startCli(['worker', '--poll-ms', '100', '--json'], { cwd: scratch.path });
    const thirdDone = finished(third);
    await waitFor(
      'the entry to be dead-lettered',
      () =>
        postgres.sql('worker_dead', 'SELECT count(*) FROM hookline_journal WHERE dead_at IS NOT NULL').trim() === '1',
    );
    third.kill('SIGTERM');
    await thirdDone;
    expect(lines('tries.txt')).toHaveLength(2);
    const stats = JSON.parse((await runCli(['journal', 'stats', '--json'], { cwd: scratch.path })).stdout) as Record<
      string,
      unknown
    >;
    expect(stats).toMatchObject({ pending: 0, dead_lettered: 1 });
    const listed = (await runCli(['journal', 'ls'], { cwd: scratch.path })).stdout;
    expect(listed).toContain('dead-lettered');
    expect(listed).toContain('dead-lettered after 3 attempts');
    expect(listed).not.toContain(TEST_PASSWORD);
    const retried = await runCli(['journal', 'retry', '1'], { cwd: scratch.path });
    expect(retried.stdout).toBe('entry 1 is pending again\n');
    expect((await runCli(['journal', 'retry', '1'], { cwd: scratch.path })).code).toBe(1);
    scratch.write('healed', '');
    const worker = startCli(['worker', '--poll-ms', '100'], { cwd: scratch.path });
    const done = finished(worker);
    await waitFor('the retried entry to run', () => lines('tries.txt').length === 3);
    await waitFor(
      'the journal to empty',
      () => postgres.sql('worker_dead', 'SELECT count(*) FROM hookline_journal').trim() === '0',
    );
    worker.kill('SIGTERM');
    expect((await done).code).toBe(0);
  }, 120_000);

  test('a journal table locked past [journal] busy_timeout_ms (its lock_timeout): `hookline emit` reports the durable hook failed as busy and does not run it', async () => {
    const url = postgres.database('busy_emit');
    scratch.write(
      'hookline.toml',
      `preset = "task"\n\n[journal]\nurl = "${url}"\nbusy_timeout_ms = 300\n\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> ran.txt']\n`,
    );
    // The journal's tables exist before the other session locks one.
    expect((await runCli(['journal', 'stats'], { cwd: scratch.path })).code).toBe(0);
    const lock = await holdTableLock(url, 'hookline_journal');
    const result = await runCli(['emit', 'after_merge', '--set', 'task=t-1', '--json'], { cwd: scratch.path });
    await lock.release();
    const outcome = JSON.parse(result.stdout) as { hooks: Array<Record<string, unknown>>; warnings: string[] };
    expect(outcome.hooks).toMatchObject([{ name: 'after_merge-01', status: 'failed' }]);
    expect(String(outcome.hooks[0]!['error'])).toContain('could not journal the durable hooks "after_merge-01"');
    expect(String(outcome.hooks[0]!['error'])).toContain(
      'is busy: another session held a lock it needed past its lock timeout of 300 ms',
    );
    expect(outcome.warnings.join('\n')).toContain('they did not run');
    expect(result.stdout + result.stderr).not.toContain(TEST_PASSWORD);
    expect(lines('ran.txt')).toEqual([]);

    // The lock gone, the next emit journals and runs its hook.
    const next = await runCli(['emit', 'after_merge', '--set', 'task=t-2', '--json'], { cwd: scratch.path });
    expect(JSON.parse(next.stdout)).toMatchObject({ hooks: [{ status: 'ok' }], warnings: [] });
    expect(lines('ran.txt')).toEqual(['t-2']);
  }, 60_000);

  test('an unreachable server: one line on stderr with what to do, the password never printed', async () => {
    scratch.write('hookline.toml', CONFIG);
    const url = `postgres://hookline:${TEST_PASSWORD}@127.0.0.1:1/nothing`;
    const result = await runCli(['journal', 'stats'], { cwd: scratch.path, env: { HOOKLINE_JOURNAL: url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The hook journal postgres://hookline:***@127.0.0.1:1/nothing cannot be reached');
    expect(result.stderr).not.toContain(TEST_PASSWORD);
    // An emit still runs its hooks, and says they were not journaled.
    const emitted = await runCli(['emit', 'after_merge', '--set', 'task=t-1', '--json'], {
      cwd: scratch.path,
      env: { HOOKLINE_JOURNAL: url },
    });
    expect(emitted.stdout + emitted.stderr).not.toContain(TEST_PASSWORD);
  }, 60_000);
});

test('[journal] is checked like the rest of the config: a bad key or value is an issue with its file and line', async () => {
  scratch.write('hookline.toml', `preset = "task"\n\n[journal]\nrun = "everyone"\nlease = 5\n`);
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    'hookline.toml:4: [journal] `run` Invalid type: Expected ("emitter" | "workers") but received "everyone"',
  );
  expect(result.stderr).toContain(
    'hookline.toml:5: unknown setting `lease` in [journal] — remove it (the settings are url, run, max_attempts, lease_ms, busy_timeout_ms)',
  );
});
