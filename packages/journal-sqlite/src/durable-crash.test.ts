// Durable hooks across real process deaths: engines in child processes journal task points in one
// SQLite file, get killed with SIGKILL, and another engine resumes the journal.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHookEngine, loadConfig } from '@hookline/core';
import { createJournalSeal } from '@hookline/core/plugin';
import { commandRunner } from '@hookline/runner-command';
import { expect, test } from 'vitest';
import { startChild, type Child } from '../test-support/child-process.ts';
import { killHookGroups, useScratchDirectory, waitFor } from '../test-support/scratch.ts';
import { isSameProcess, processIdentity } from '@hookline/runner-command/process-identity';
import { TEST_JOURNAL_KEY } from '../test-support/test-key.ts';
import { sqliteJournal } from './sqlite-journal.ts';

const scratch = useScratchDirectory();

/** Resumes the journal at `path` in this process, with `config`, and returns the report. */
async function resumeHere(path: string, config: string) {
  const runners = [commandRunner({ logRoot: join(scratch(), 'runs') })];
  const journal = sqliteJournal({ path });
  const engine = createHookEngine({
    config: loadConfig([{ text: config, source: 'task.toml' }], { runners }),
    runners,
    journal,
    journalKey: TEST_JOURNAL_KEY,
  });
  try {
    const report = await engine.resume();
    return { report, left: await journal.list() };
  } finally {
    await engine.close();
  }
}

async function until(child: Child, condition: () => boolean, what: string): Promise<void> {
  if (!(await waitFor(condition, 30_000)))
    throw new Error(`gave up waiting for ${what}; the child printed: ${child.output()}`);
}

const lines = (file: string): string[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];

test('kill -9 while a durable hook runs: after a restart the hook runs again and the journal empties', async () => {
  const path = join(scratch(), 'journal.db');
  const marker = join(scratch(), 'marker');
  // Slow on the first run (until the test creates `fast`), quick on the second.
  const config = `preset = "task"\n[hooks]\nafter_merge = ['echo "start $ARC_TASK $$" >> marker; echo $$ >> pids; [ -f fast ] || sleep 30; echo "done $ARC_TASK" >> marker']\n`;
  const child = startChild({ mode: 'emit', journal: path, config, cwd: scratch(), tasks: ['t-1'] });
  await until(child, () => lines(marker).length === 1, 'the hook to start');
  child.process.kill('SIGKILL');
  expect((await child.exited).signal).toBe('SIGKILL');
  // The killed engine's hook is an orphan in its own process group now: end it, as a reboot would.
  killHookGroups(join(scratch(), 'pids'));
  writeFileSync(join(scratch(), 'fast'), '');

  const { report, left } = await resumeHere(path, config);
  expect(report.pending).toEqual([]);
  expect(report.ran).toHaveLength(1);
  expect(report.ran[0]?.entry).toMatchObject({
    event: 'after_merge',
    context: { event: 'after_merge', task: 't-1' },
    attempts: 2,
  });
  expect(report.ran[0]?.outcome.hooks.map((hook) => [hook.name, hook.status, hook['exit_code']])).toEqual([
    ['after_merge-01', 'ok', 0],
  ]);
  expect(lines(marker).map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
    'start t-1',
    'start t-1',
    'done t-1',
  ]);
  expect(left).toEqual([]);
  // The second run appended its own section to the command's log.
  expect(readFileSync(join(scratch(), 'runs', 't-1', 'hooks', 'after_merge-01.log'), 'utf8')).toContain(
    'result: exit 0',
  );
});

test('kill -9 while a durable hook runs, its group left running: the restart ends that group (its identity recorded and sealed) before the hook runs again', async () => {
  const path = join(scratch(), 'journal.db');
  const marker = join(scratch(), 'marker');
  const config = `preset = "task"\n[hooks]\nafter_merge = ['echo "start $ARC_TASK" >> marker; echo $$ >> pids; [ -f fast ] || sleep 600; echo "done $ARC_TASK" >> marker']\n`;
  const child = startChild({ mode: 'emit', journal: path, config, cwd: scratch(), tasks: ['t-1'] });
  await until(
    child,
    () => lines(marker).length === 1 && lines(join(scratch(), 'pids')).length === 1,
    'the hook to start',
  );
  const orphan = processIdentity(Number(lines(join(scratch(), 'pids'))[0]))!;
  // The group is recorded (sealed) once the hook started; wait for it to reach the journal.
  const inspector = sqliteJournal({ path });
  for (let tries = 0; tries < 200 && ((await inspector.list())[0]?.processGroups ?? []).length === 0; tries++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect((await inspector.list())[0]?.processGroups).toEqual([
    { host: expect.any(String), pid: orphan.pid, start: orphan.start, seal: expect.stringMatching(/^v1\./) },
  ]);
  await inspector.doClose?.();
  child.process.kill('SIGKILL');
  await child.exited;
  expect(isSameProcess(orphan)).toBe(true);
  writeFileSync(join(scratch(), 'fast'), '');

  try {
    const { report, left } = await resumeHere(path, config);
    expect(isSameProcess(orphan)).toBe(false);
    expect(report.refused).toEqual([]);
    expect(report.ran.map((ran) => [ran.outcome.hooks[0]?.status, ran.outcome.warnings])).toEqual([['ok', []]]);
    expect(lines(marker)).toEqual(['start t-1', 'start t-1', 'done t-1']);
    expect(left).toEqual([]);
  } finally {
    killHookGroups(join(scratch(), 'pids'));
  }
});

test('1 000 durable events and a crash in the middle: every one runs at least once, none is lost', async () => {
  const path = join(scratch(), 'journal.db');
  const effects = join(scratch(), 'effects');
  const count = 1_000;
  // Every hook waits for `go`, so all 1 000 points are journaled before the first one can finish;
  // then they run two at a time and the engine is killed part-way. The wait gives up after about
  // two minutes: the killed engine's hooks outlive it, and once the test removed its folder `go`
  // never appears, so an unbounded loop would spin for ever.
  const config = `preset = "task"\n[hooks]\nafter_merge = ['n=0; while [ ! -f go ]; do n=$((n+1)); [ $n -gt 12000 ] && exit 1; sleep 0.01; done; printf "%s\\\\n" "$ARC_TASK" >> effects']\n`;
  const tasks = Array.from({ length: count }, (_, index) => `t-${index}`);
  const child = startChild({ mode: 'emit', journal: path, config, cwd: scratch(), tasks, concurrency: 2 });
  await until(child, () => child.output().includes(`journaled ${count}`), 'the events to be journaled');
  writeFileSync(join(scratch(), 'go'), '');
  await until(child, () => lines(effects).length >= 200, 'some hooks to run');
  child.process.kill('SIGKILL');
  await child.exited;
  const before = lines(effects).length;
  expect(before).toBeGreaterThanOrEqual(200);
  expect(before).toBeLessThan(count);

  // What the crash left in the journal: every entry not cleared yet — not started, running, or
  // finished a moment before the kill but not cleared. Exactly those must run again.
  const inspector = sqliteJournal({ path });
  const uncleared = (await inspector.list()).length;
  await inspector.doClose?.();
  expect(uncleared).toBeGreaterThanOrEqual(count - before);

  const { report, left } = await resumeHere(path, config);
  expect(left).toEqual([]);
  expect(report.pending).toEqual([]);
  expect(report.ran.length).toBe(uncleared);
  const ran = lines(effects);
  const seen = new Set(ran);
  expect(tasks.filter((task) => !seen.has(task))).toEqual([]);
  // At least once; a second run happens only for an entry the crash left uncleared.
  expect(ran.length).toBeGreaterThanOrEqual(count);
  expect(ran.length - count).toBeLessThanOrEqual(report.ran.length);
});

test('two processes resuming one journal never run an entry at the same time, and run every entry', async () => {
  const path = join(scratch(), 'journal.db');
  const count = 24;
  // Each run logs its start and end with the engine's pid and a timestamp in nanoseconds. Leases of
  // 1 200 ms against runs of 1 600 ms: only renewal keeps the other process from taking an entry. The
  // lease leaves room for a loaded machine: renewal every 400 ms still holds through a stalled event
  // loop of up to 800 ms (300 ms leases were taken over on a 2-core machine at load 15).
  const config = `preset = "task"\n[hooks]\nafter_merge = ['echo "start $ARC_TASK $PPID $(date +%s%N)" >> runs.log; sleep 1.6; echo "end $ARC_TASK $PPID $(date +%s%N)" >> runs.log']\n`;
  const seed = sqliteJournal({ path });
  const seal = createJournalSeal(TEST_JOURNAL_KEY);
  for (let index = 0; index < count; index++) {
    const record = {
      preset: 'task',
      event: 'after_merge',
      context: { event: 'after_merge', task: `t-${index}`, cwd: scratch() },
      hooks: ['after_merge-01'],
    };
    const id = await seed.doRecord({ ...record, seal: await seal.sealEntry(seed.scope, record) }, 'seed', 60_000);
    await seed.doRelease(id, 'seed', 'seeded for the test');
  }
  await seed.doClose?.();

  const children = [0, 1].map(() =>
    startChild({ mode: 'resume', journal: path, config, cwd: scratch(), concurrency: 4, leaseMs: 1_200 }),
  );
  const exits = await Promise.all(children.map((child) => child.exited));
  expect(
    exits.map((exit) => exit.code),
    children.map((child) => child.output()).join('\n'),
  ).toEqual([0, 0]);

  const runs = new Map<string, Array<{ pid: string; start: bigint; end?: bigint }>>();
  for (const line of lines(join(scratch(), 'runs.log'))) {
    const [kind, task, pid, time] = line.split(' ') as [string, string, string, string];
    const list = runs.get(task) ?? [];
    runs.set(task, list);
    if (kind === 'start') list.push({ pid, start: BigInt(time) });
    else list.find((run) => run.pid === pid && run.end === undefined)!.end = BigInt(time);
  }
  expect([...runs.keys()].sort()).toEqual(Array.from({ length: count }, (_, index) => `t-${index}`).sort());
  for (const [task, list] of runs) {
    expect(
      list.every((run) => run.end !== undefined),
      `${task} ended`,
    ).toBe(true);
    const ordered = [...list].sort((a, b) => (a.start < b.start ? -1 : 1));
    for (let index = 1; index < ordered.length; index++)
      expect(ordered[index]!.start > ordered[index - 1]!.end!, `${task} ran twice at once`).toBe(true);
    // Nothing crashed and leases were renewed: each entry ran exactly once.
    expect(list, task).toHaveLength(1);
  }
  const byProcess = children.map(
    (child) => JSON.parse(child.output().trim().split('\n').at(-1)!) as { ran: number; pending: number },
  );
  expect(byProcess.reduce((sum, summary) => sum + summary.ran, 0)).toBe(count);
  const reopened = sqliteJournal({ path });
  expect(await reopened.list()).toEqual([]);
  await reopened.doClose?.();
});
