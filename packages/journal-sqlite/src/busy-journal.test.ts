// A journal whose lock another process holds is busy, not unusable: a durable hook is journaled once
// the lock is free, or its emit reports it failed — it never runs unjournaled (a failed delivery of
// such a run was never retried: a lost message in the webhook soak). The lock is held by a real
// second process with `BEGIN IMMEDIATE`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createHookEngine, JournalError, loadConfig, type HookEngine } from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { afterEach, expect, test } from 'vitest';
import { holdWriteLock } from '../test-support/lock-holder-process.ts';
import { useScratchDirectory, waitFor } from '../test-support/scratch.ts';
import { TEST_JOURNAL_KEY } from '../test-support/test-key.ts';
import { JOURNAL_TABLE } from './journal-schema.ts';
import { sqliteJournal, type SqliteJournal } from './sqlite-journal.ts';

const scratch = useScratchDirectory();
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

// A durable task point whose hook appends its task to `marker`; with `gate`, it waits for the file `go` first.
const config = (gate = false) =>
  `preset = "task"\n[[hooks]]\nname = "after_merge-01"\nevent = "after_merge"\non_error = "block"\ncommand = '${gate ? 'echo "start $ARC_TASK" >> started; while [ ! -f go ]; do sleep 0.05; done; ' : ''}echo "$ARC_TASK" >> marker'\n`;

function engineOn(
  path: string,
  options: { busyTimeoutMs?: number; record?: boolean; gate?: boolean; leaseMs?: number } = {},
): { engine: HookEngine; journal: SqliteJournal } {
  const runners = [commandRunner({ logRoot: join(scratch(), 'runs') })];
  const journal = sqliteJournal({
    path,
    ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
  });
  const engine = createHookEngine({
    config: loadConfig([{ text: config(options.gate), source: 'task.toml' }], { runners }),
    runners,
    journal,
    journalKey: TEST_JOURNAL_KEY,
    ...(options.record === true ? { durableHooks: 'record' as const } : {}),
    ...(options.leaseMs === undefined ? {} : { journalLeaseMs: options.leaseMs }),
  });
  closing.push(() => engine.close());
  return { engine, journal };
}

const lines = (file: string): string[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];

// The journal's rows as a reader sees them: WAL lets it read while another process holds the write lock.
function rows(path: string): Array<{ id: number; hooks: string; owner: string | null }> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(`SELECT id, hooks, owner FROM ${JOURNAL_TABLE} ORDER BY id`).all() as Array<{
      id: number;
      hooks: string;
      owner: string | null;
    }>;
  } finally {
    db.close();
  }
}

/** Tracks whether `promise` settled, and counts event-loop ticks meanwhile: a frozen loop would count none. */
function watch<T>(promise: Promise<T>): { settled: () => boolean; ticks: () => number; done: Promise<T> } {
  let settled = false;
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const done = promise.finally(() => {
    settled = true;
    clearInterval(timer);
  });
  done.catch(() => undefined);
  return { settled: () => settled, ticks: () => ticks, done };
}

// Long enough that several attempts met the lock (each lets SQLite wait at most BUSY_SLICE_MS, 50 ms).
const SEVERAL_ATTEMPTS_TICKS = 40;

async function createJournalFile(path: string): Promise<void> {
  const journal = sqliteJournal({ path });
  await journal.stats();
  await journal.doClose();
}

test('an emit whose durable hook is recorded while another process holds the lock waits, the event loop free, and journals it once the lock is released', async () => {
  const path = join(scratch(), 'journal.db');
  await createJournalFile(path);
  const lock = await holdWriteLock(path);
  const { engine } = engineOn(path, { busyTimeoutMs: 120_000 });
  const emitting = watch(engine.emit('after_merge', { task: 't-1', cwd: scratch() }));
  expect(await waitFor(() => emitting.ticks() >= SEVERAL_ATTEMPTS_TICKS, 60_000)).toBe(true);
  // Still waiting for the lock: nothing journaled, and the hook did not run unjournaled.
  expect(emitting.settled()).toBe(false);
  expect(lines(join(scratch(), 'marker'))).toEqual([]);
  expect(rows(path)).toEqual([]);

  await lock.release();
  const outcome = await emitting.done;
  expect(outcome.warnings).toEqual([]);
  const settled = await outcome.settled;
  expect(settled.warnings).toEqual([]);
  expect(settled.hooks[0]).toMatchObject({ status: 'ok' });
  expect(lines(join(scratch(), 'marker'))).toEqual(['t-1']);
  expect(rows(path)).toEqual([]);
});

test('the lock held past busyTimeoutMs: the emit reports the durable hook failed, naming the busy journal, and does not run it', async () => {
  const path = join(scratch(), 'journal.db');
  await createJournalFile(path);
  const lock = await holdWriteLock(path);
  const { engine } = engineOn(path, { busyTimeoutMs: 300 });
  const outcome = await engine.emit('after_merge', { task: 't-1', cwd: scratch() });
  const settled = await outcome.settled;
  const report = settled.hooks[0]!;
  expect(report.status).toBe('failed');
  expect(report.error).toContain(`The hook journal ${path} stayed locked by another process for`);
  expect(report.error).toContain('they did not run');
  // Its on_error decides, as for any failure.
  expect(report.decision).toMatchObject({ decision: 'block' });
  expect(settled.warnings.join('\n')).toContain(`hook "${report.name}" failed: could not journal the durable hooks`);
  expect(settled.warnings.join('\n')).not.toContain('they run now');
  await lock.release();
  await engine.close();
  expect(lines(join(scratch(), 'marker'))).toEqual([]);
  expect(rows(path)).toEqual([]);

  // Emitted again with the lock free, it is journaled and runs.
  const again = engineOn(path, { busyTimeoutMs: 300 }).engine;
  const next = await (await again.emit('after_merge', { task: 't-2', cwd: scratch() })).settled;
  expect(next.hooks[0]).toMatchObject({ status: 'ok' });
  expect(lines(join(scratch(), 'marker'))).toEqual(['t-2']);
});

test('with durableHooks "record", the lock held past busyTimeoutMs: the emitter reports the hook failed and neither runs nor records it', async () => {
  const path = join(scratch(), 'journal.db');
  await createJournalFile(path);
  const lock = await holdWriteLock(path);
  const { engine } = engineOn(path, { busyTimeoutMs: 300, record: true });
  const settled = await (await engine.emit('after_merge', { task: 't-1', cwd: scratch() })).settled;
  expect(settled.hooks[0]).toMatchObject({ status: 'failed' });
  expect(settled.hooks[0]!.error).toContain('stayed locked by another process');
  await lock.release();
  await engine.close();
  expect(lines(join(scratch(), 'marker'))).toEqual([]);
  expect(rows(path)).toEqual([]);
});

test('the journal itself rejects a busy write with a busy JournalError, HOOKLINE_JOURNAL_BUSY, and keeps nothing of it', async () => {
  const path = join(scratch(), 'journal.db');
  await createJournalFile(path);
  const lock = await holdWriteLock(path);
  const journal = sqliteJournal({ path, busyTimeoutMs: 300 });
  closing.push(() => journal.doClose());
  const record = { preset: 'task', event: 'after_merge', context: { task: 't-1' }, hooks: ['h'] };
  const error = await journal.doRecord(record, 'me', 60_000).catch((failure: unknown) => failure);
  const read = await journal.stats().then(
    () => 'read',
    (failure: unknown) => failure,
  );
  await lock.release();
  expect(JournalError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ code: 'HOOKLINE_JOURNAL_BUSY', busy: true, location: path });
  expect((error as JournalError).message).toMatch(
    /^The hook journal .* stayed locked by another process for \d+ ms, past its busy timeout of 300 ms \(database is locked\)\. The journal is fine/,
  );
  // WAL: reading needs no write lock.
  expect(read).toBe('read');
  expect(rows(path)).toEqual([]);
});

test('a worker claiming while another process holds the lock waits, and runs the entry once the lock is released', async () => {
  const path = join(scratch(), 'journal.db');
  const recorder = engineOn(path, { record: true });
  const recorded = await (await recorder.engine.emit('after_merge', { task: 't-1', cwd: scratch() })).settled;
  expect(recorded.hooks[0]).toMatchObject({ status: 'skipped' });
  expect(rows(path)).toHaveLength(1);

  const lock = await holdWriteLock(path);
  const worker = engineOn(path, { busyTimeoutMs: 120_000 });
  const resuming = watch(worker.engine.resume());
  expect(await waitFor(() => resuming.ticks() >= SEVERAL_ATTEMPTS_TICKS, 60_000)).toBe(true);
  expect(resuming.settled()).toBe(false);
  expect(lines(join(scratch(), 'marker'))).toEqual([]);

  await lock.release();
  const report = await resuming.done;
  expect(report.ran).toHaveLength(1);
  expect(report.ran[0]!.outcome.warnings).toEqual([]);
  expect(lines(join(scratch(), 'marker'))).toEqual(['t-1']);
  expect(rows(path)).toEqual([]);
});

test('the lock held while the entry is cleared: completing waits for it, and the entry is cleared once it is released', async () => {
  const path = join(scratch(), 'journal.db');
  const { engine } = engineOn(path, { busyTimeoutMs: 120_000, gate: true });
  const outcome = await engine.emit('after_merge', { task: 't-1', cwd: scratch() });
  expect(await waitFor(() => lines(join(scratch(), 'started')).length === 1, 60_000)).toBe(true);
  const lock = await holdWriteLock(path);
  writeFileSync(join(scratch(), 'go'), '');
  const settling = watch(outcome.settled);
  expect(await waitFor(() => lines(join(scratch(), 'marker')).length === 1, 60_000)).toBe(true);
  const ranAt = settling.ticks();
  expect(await waitFor(() => settling.ticks() >= ranAt + SEVERAL_ATTEMPTS_TICKS, 60_000)).toBe(true);
  // The hook ended, but its entry is not cleared until the lock is free.
  expect(settling.settled()).toBe(false);
  expect(rows(path)).toHaveLength(1);

  await lock.release();
  const settled = await settling.done;
  expect(settled.warnings).toEqual([]);
  expect(rows(path)).toEqual([]);
  expect(lines(join(scratch(), 'marker'))).toEqual(['t-1']);
});

test('the lock held past busyTimeoutMs while the entry is cleared: the entry stays and runs again on resume — delivered twice, never lost', async () => {
  const path = join(scratch(), 'journal.db');
  const { engine } = engineOn(path, { busyTimeoutMs: 300, gate: true, leaseMs: 300 });
  const outcome = await engine.emit('after_merge', { task: 't-1', cwd: scratch() });
  expect(await waitFor(() => lines(join(scratch(), 'started')).length === 1, 60_000)).toBe(true);
  const lock = await holdWriteLock(path);
  writeFileSync(join(scratch(), 'go'), '');
  const settled = await outcome.settled;
  expect(settled.warnings.join('\n')).toContain('could not clear journal entry');
  expect(settled.warnings.join('\n')).toContain('stayed locked by another process');
  await lock.release();
  await engine.close();
  expect(rows(path)).toHaveLength(1);

  // Its lease ends; another engine takes it and runs it again.
  const other = engineOn(path, { busyTimeoutMs: 300 });
  expect(
    await waitFor(() => {
      void other.engine.resume().catch(() => undefined);
      return lines(join(scratch(), 'marker')).length === 2;
    }, 60_000),
  ).toBe(true);
  expect(lines(join(scratch(), 'marker'))).toEqual(['t-1', 't-1']);
});
