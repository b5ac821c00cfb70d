import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteJournal } from '@hookline/journal-sqlite';
import type { JournalEntry } from '@hookline/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { killGroup, waitFor } from '../../test-support/processes.ts';
import { finished, makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';

// Durable hooks through the CLI: journaled in .hookline/journal.db (or --journal / HOOKLINE_JOURNAL),
// resumed by the next `hookline emit` or `hookline run` after a process was killed mid-hook.

let scratch: Scratch;
const leftovers: number[] = [];
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => {
  // A hook of a CLI killed with SIGKILL outlives it; end it before its folder goes.
  for (const pid of leftovers.splice(0)) killGroup(pid);
  scratch.cleanup();
});

// The slow durable hook: notes each start in side.txt, then waits for `release` (bounded, in case a
// test fails before writing it). A run that is resumed after `release` exists ends at once.
const SLOW =
  'echo $$ > hook.pid; echo started >> side.txt; i=0; while [ ! -f release ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done';

const path = (name: string): string => join(scratch.path, name);
const starts = (): number =>
  existsSync(path('side.txt')) ? readFileSync(path('side.txt'), 'utf8').split('\n').filter(Boolean).length : 0;

async function pending(file = path('.hookline/journal.db')): Promise<readonly JournalEntry[]> {
  const journal = sqliteJournal({ path: file });
  try {
    return await journal.list();
  } finally {
    await journal.doClose?.();
  }
}

/** Starts `hookline run`, feeds it one event, and SIGKILLs it while the event's durable hook runs. */
async function killRunMidHook(event: Record<string, unknown>): Promise<void> {
  const child = startCli(['run'], { cwd: scratch.path });
  const done = finished(child);
  let answered = '';
  child.stdout!.on('data', (chunk: string) => (answered += chunk));
  child.stdin!.write(`${JSON.stringify(event)}\n`);
  // The hook is spawned before emit resolves, so its start can be seen a moment before the answer
  // is written; kill only once both happened, or the test races the CLI's own write.
  await waitFor(
    'the durable hook to start and the line to be answered',
    () => starts() === 1 && readFileSync(path('hook.pid'), 'utf8').trim() !== '' && answered.endsWith('\n'),
  );
  leftovers.push(Number(readFileSync(path('hook.pid'), 'utf8').trim()));
  child.kill('SIGKILL');
  const result = await done;
  expect(result.signal).toBe('SIGKILL');
  // The line was answered before the hook ran: the entry was journaled before emit returned.
  expect(JSON.parse(result.stdout)).toMatchObject({
    event: event['event'],
    decision: 'proceed',
    hooks: [{ status: 'pending' }],
  });
  expect(await pending()).toMatchObject([{ event: event['event'], attempts: 1 }]);
}

test('a task point left by a killed `hookline run` runs again at the next `hookline emit`, and the journal empties', async () => {
  scratch.write(
    'hookline.toml',
    `preset = "task"\n\n[hooks]\nafter_merge = ['${SLOW}']\nafter_fail = ["echo failed >> failed.txt"]\n`,
  );
  await killRunMidHook({ event: 'after_merge', task: 't-1' });
  writeFileSync(path('release'), '');

  const result = await runCli(['emit', 'after_fail', '--set', 'task=t-2', '--json'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  // stdout is the emit's own outcome only; the resumed entry is reported on stderr.
  expect(JSON.parse(result.stdout)).toMatchObject({
    event: 'after_fail',
    hooks: [{ name: 'after_fail-01', status: 'ok' }],
  });
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toBe(
    'hookline: resumed after_merge for task "t-1" (journal entry 1, attempt 2): after_merge-01 ok\n',
  );
  expect(starts()).toBe(2);
  expect(readFileSync(path('failed.txt'), 'utf8')).toBe('failed\n');
  expect(await pending()).toEqual([]);
  // Cleared means cleared: a later start runs nothing again.
  expect((await runCli(['emit', 'after_fail', '--set', 'task=t-3'], { cwd: scratch.path })).stderr).not.toContain(
    'resumed',
  );
  expect(starts()).toBe(2);
}, 60_000);

test('a `durable = true` arc hook left by a killed `hookline run` runs again at `hookline run` with empty input', async () => {
  scratch.write(
    'hookline.toml',
    `[[hooks]]\nname = "notify"\nevent = "run_complete"\ndurable = true\nsandbox = false\ncommand = '${SLOW}'\n`,
  );
  await killRunMidHook({ event: 'run_complete', run_id: 'r1', workflow_name: 'ship' });
  writeFileSync(path('release'), '');

  const result = await runCli(['run'], { cwd: scratch.path, input: '' });
  expect(result.code).toBe(0);
  // One line per input line: none.
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(
    'hookline: resumed run_complete for run_id "r1" (journal entry 1, attempt 2): notify ok',
  );
  expect(starts()).toBe(2);
  expect(await pending()).toEqual([]);
}, 60_000);

test('SIGTERM while a durable hook runs releases its entry with the reason; the next start runs it', async () => {
  scratch.write('hookline.toml', `preset = "task"\n\n[hooks]\nafter_merge = ['${SLOW}']\n`);
  const child = startCli(['emit', 'after_merge', '--set', 'task=t-1'], { cwd: scratch.path });
  child.stdin!.end();
  const done = finished(child);
  await waitFor('the durable hook to start', () => starts() === 1);
  child.kill('SIGTERM');
  expect((await done).code).toBe(143);
  const [entry, ...more] = await pending();
  expect(more).toEqual([]);
  // Released, not merely abandoned: nobody holds it, and it says why it is still there.
  expect(entry).toMatchObject({
    event: 'after_merge',
    attempts: 1,
    lastError: 'the engine closed before the durable hooks ended',
  });
  expect(entry?.owner).toBeUndefined();

  writeFileSync(path('release'), '');
  const result = await runCli(['run'], { cwd: scratch.path, input: '' });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('resumed after_merge for task "t-1" (journal entry 1, attempt 2): after_merge-01 ok');
  expect(starts()).toBe(2);
  expect(await pending()).toEqual([]);
}, 60_000);

test('a corrupt journal: a warning naming the file and what to do; the file is left alone and the hooks still run', async () => {
  scratch.write('hookline.toml', 'preset = "task"\n\n[hooks]\nafter_merge = ["echo $ARC_TASK >> merged.txt"]\n');
  const junk = 'this is not an SQLite database\n';
  const file = scratch.write('.hookline/journal.db', junk);

  const result = await runCli(['emit', 'after_merge', '--set', 'task=t-1', '--json'], { cwd: scratch.path });
  // As core does: resume() fails with the JournalError, each emit runs its hooks unjournaled, with a warning.
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(
    `hookline: warning: durable hooks left by earlier runs were not resumed: The hook journal ${file} is corrupted or not a journal`,
  );
  expect(result.stderr).toContain(`move it aside (e.g. mv "${file}" "${file}.corrupt")`);
  const outcome = JSON.parse(result.stdout) as { hooks: Array<{ status: string }>; warnings: string[] };
  expect(outcome.hooks).toMatchObject([{ status: 'ok' }]);
  expect(outcome.warnings).toEqual([
    expect.stringMatching(
      /^could not journal the durable hooks "after_merge-01": The hook journal .* — they run now, but a crash before they end would lose them$/,
    ),
  ]);
  expect(readFileSync(path('merged.txt'), 'utf8')).toBe('t-1\n');
  expect(readFileSync(file, 'utf8')).toBe(junk);

  // `run` goes on too: each line is answered, the warning is on stderr.
  const streamed = await runCli(['run'], { cwd: scratch.path, input: '{"event":"after_merge","task":"t-2"}\n' });
  expect(streamed.code).toBe(0);
  expect(streamed.stdout.trimEnd().split('\n')).toHaveLength(1);
  expect(streamed.stderr).toContain(`The hook journal ${file} is corrupted or not a journal`);
  expect(readFileSync(path('merged.txt'), 'utf8')).toBe('t-1\nt-2\n');
  expect(readFileSync(file, 'utf8')).toBe(junk);
});

test('--journal FILE, else HOOKLINE_JOURNAL, else .hookline/journal.db; no durable hook, no journal', async () => {
  scratch.write('hookline.toml', 'preset = "task"\n\n[hooks]\nafter_merge = ["true"]\n');
  expect(
    (
      await runCli(['emit', 'after_merge', '--set', 'task=t-1', '--journal', 'state/hooks.db'], {
        cwd: scratch.path,
        env: { HOOKLINE_JOURNAL: 'env.db' },
      })
    ).code,
  ).toBe(0);
  expect(existsSync(path('state/hooks.db'))).toBe(true);
  expect(existsSync(path('env.db'))).toBe(false);
  expect((await runCli(['run'], { cwd: scratch.path, input: '', env: { HOOKLINE_JOURNAL: 'env.db' } })).code).toBe(0);
  expect(existsSync(path('env.db'))).toBe(true);
  expect(existsSync(path('.hookline'))).toBe(false);

  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_complete"\ncommand = "true"\n');
  expect((await runCli(['emit', 'run_complete'], { cwd: scratch.path })).code).toBe(0);
  expect(existsSync(path('.hookline'))).toBe(false);
});

test('kill -9 mid-hook: the next start ends the orphaned hook before it runs the entry again, so the two runs never overlap', async () => {
  // A ~2 s hook that logs its start and end (pid, nanoseconds) and, as it starts, whether an earlier
  // run of it is still alive (a zombie has ended: only its reaping is left). The first run lasts
  // longer, so that it is surely still running when the next CLI starts, however slow the machine.
  const hook = [
    'for p in $(cat pids 2>/dev/null); do s=; read -r s < /proc/$p/stat 2>/dev/null || continue; case "$s" in *") Z "*) ;; *) echo "alive $p" >> runs.log;; esac; done',
    'echo $$ >> pids',
    'echo "start $$ $(date +%s%N)" >> runs.log',
    'if [ -f again ]; then sleep 2; else sleep 20; fi',
    'echo "end $$ $(date +%s%N)" >> runs.log',
  ].join('; ');
  scratch.write('hookline.toml', `preset = "task"\n\n[hooks]\nafter_merge = ['${hook}']\n`);
  const lines = (): string[] =>
    existsSync(path('runs.log')) ? readFileSync(path('runs.log'), 'utf8').split('\n').filter(Boolean) : [];
  const child = startCli(['emit', 'after_merge', '--set', 'task=t-1'], { cwd: scratch.path });
  child.stdin!.end();
  const done = finished(child);
  await waitFor('the durable hook to start', () => lines().some((line) => line.startsWith('start ')));
  const first = Number(lines()[0]!.split(' ')[1]);
  leftovers.push(first);
  // The hook's process group reaches the journal just after the hook starts (a write of its own): a
  // kill before that leaves nothing to end, which is the documented window, not what this test is about.
  for (let tries = 0; tries < 400 && ((await pending())[0]?.processGroups ?? []).length === 0; tries++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect((await pending())[0]?.processGroups).toHaveLength(1);
  child.kill('SIGKILL');
  expect((await done).signal).toBe('SIGKILL');
  writeFileSync(path('again'), '');

  const result = await runCli(['emit', 'after_fail', '--set', 'task=t-2'], { cwd: scratch.path });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(
    'hookline: resumed after_merge for task "t-1" (journal entry 1, attempt 2): after_merge-01 ok',
  );
  const runs = new Map<string, { start: bigint; end?: bigint }>();
  for (const line of lines()) {
    const [kind, pid, time] = line.split(' ');
    if (kind === 'start') runs.set(pid!, { start: BigInt(time!) });
    if (kind === 'end') runs.get(pid!)!.end = BigInt(time!);
  }
  expect(lines().filter((line) => line.startsWith('alive '))).toEqual([]);
  expect(runs.size).toBe(2);
  const [killed, again] = [...runs.values()];
  // The orphan was ended (it never logged its end), and the second run ended after starting on its own.
  expect(killed!.end).toBeUndefined();
  expect(again!.end).toBeDefined();
  expect(again!.start).toBeGreaterThan(killed!.start);
  expect(await pending()).toEqual([]);
}, 60_000);
