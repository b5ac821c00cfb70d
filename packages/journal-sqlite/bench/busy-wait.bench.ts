/**
 * What waiting for a busy journal costs the waiting process. Another process takes the write lock
 * (`BEGIN IMMEDIATE`) and lets go by itself after HOLD_MS; meanwhile this process records an entry.
 * Side by side, in one run:
 * (a) `sqliteJournal().doRecord`: waits in slices of BUSY_SLICE_MS with the event loop turning between;
 * (b) the same insert on a bare `node:sqlite` connection whose busy timeout covers the wait, as the
 *     journal did before: SQLite's busy handler sleeps on the event loop's thread.
 * Printed per hold: the longest gap between ticks of a 5 ms timer while waiting and how
 * long after the lock was let go the record resolved (the holder prints its clock; same machine).
 * Then (c) contention without a long hold: WRITERS processes recording RECORDS entries each into one
 * file at once, `synchronous: 'full'`: records per second and busy failures (must be 0).
 * Run with `node bench/busy-wait.bench.ts` in packages/journal-sqlite (after a build of core).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { sqliteJournal } from '../src/index.ts';

const HOLDS_MS = [1_000, 3_000];
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const WRITERS = 4;
const RECORDS = Number(process.env['RECORDS'] ?? 500);
const self = fileURLToPath(import.meta.url);
const record = (task: string) => ({
  preset: 'task',
  event: 'after_merge',
  context: { event: 'after_merge', task },
  hooks: ['after_merge-01'],
});

if (process.argv[2] === 'hold') {
  // The other process: takes the lock, says so, lets go after argv[4] ms and prints when.
  const db = new DatabaseSync(process.argv[3]!, { timeout: 10_000 });
  db.exec('BEGIN IMMEDIATE');
  process.stdout.write('locked\n');
  setTimeout(() => {
    db.exec('ROLLBACK');
    process.stdout.write(`released ${performance.timeOrigin + performance.now()}\n`);
    db.close();
  }, Number(process.argv[4]));
} else if (process.argv[2] === 'write') {
  // A writer of (c): records its entries as fast as the journal takes them, a few at a time.
  const journal = sqliteJournal({ path: process.argv[3]! });
  let busy = 0;
  const count = Number(process.argv[4]);
  for (let index = 0; index < count; index += 4) {
    const batch = Array.from({ length: Math.min(4, count - index) }, (_, offset) =>
      journal.doRecord(record(`t-${index + offset}`), `w-${process.pid}`, 0).catch(() => busy++),
    );
    await Promise.all(batch);
  }
  await journal.doClose();
  process.stdout.write(`busy ${busy}\n`);
} else {
  await main();
}

// Resolves once the other process holds the lock; `released` resolves to its clock when it let go.
async function hold(path: string, ms: number): Promise<{ released: Promise<number> }> {
  const child = spawn(process.execPath, [self, 'hold', path, String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const released = new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('locked\n')) locked();
      const match = /released (\d+(?:\.\d+)?)/.exec(text);
      if (match !== null) resolve(Number(match[1]));
    });
  });
  await isLocked;
  return { released };
}

async function waitOnce(
  path: string,
  ms: number,
  way: 'journal' | 'bare',
): Promise<{ stallMs: number; lagMs: number }> {
  const { released } = await hold(path, ms);
  // A timer that must keep firing while the record waits: a frozen loop shows as one long gap.
  let last = performance.now();
  let longest = 0;
  const ticking = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  if (way === 'journal') {
    const journal = sqliteJournal({ path, busyTimeoutMs: 60_000 });
    await journal.doRecord(record('t'), 'me', 0);
    await journal.doClose();
  } else {
    await new Promise((resolve) => setImmediate(resolve));
    const db = new DatabaseSync(path, { timeout: 60_000 });
    db.exec('BEGIN IMMEDIATE');
    db.prepare(
      `INSERT INTO hookline_journal (preset, event, context, hooks, created_at, attempts) VALUES ('task', 'after_merge', '{}', '[]', 0, 1)`,
    ).run();
    db.exec('COMMIT');
    db.close();
  }
  const done = performance.timeOrigin + performance.now();
  // One more tick, so that a stall that ends with the record is measured too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(ticking);
  return { stallMs: longest, lagMs: done - (await released) };
}

async function contention(directory: string): Promise<{ perSecond: number; busy: number }> {
  const path = join(directory, 'contention.db');
  const prepare = sqliteJournal({ path });
  await prepare.stats();
  await prepare.doClose();
  const started = performance.now();
  const outputs = await Promise.all(
    Array.from(
      { length: WRITERS },
      () =>
        new Promise<string>((resolve) => {
          const child = spawn(process.execPath, [self, 'write', path, String(RECORDS)], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let text = '';
          child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
          child.once('close', () => resolve(text));
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const busy = outputs.reduce((sum, text) => sum + Number(/busy (\d+)/.exec(text)?.[1] ?? NaN), 0);
  return { perSecond: (WRITERS * RECORDS) / seconds, busy };
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'journal-sqlite-busy-bench-'));
  try {
    const path = join(directory, 'journal.db');
    const journal = sqliteJournal({ path });
    await journal.stats();
    await journal.doClose();
    console.log(
      `| lock held | way | longest event-loop stall (ms, max of ${ROUNDS}) | record resolved after release (ms, median) |`,
    );
    console.log('| ---: | --- | ---: | ---: |');
    for (const ms of HOLDS_MS) {
      for (const way of ['journal', 'bare'] as const) {
        const samples: Array<{ stallMs: number; lagMs: number }> = [];
        for (let round = 0; round < ROUNDS; round++) samples.push(await waitOnce(path, ms, way));
        const lags = samples.map((sample) => sample.lagMs).sort((a, b) => a - b);
        const label =
          way === 'journal' ? 'sqliteJournal (slices, loop turning)' : 'bare node:sqlite busy timeout (as before)';
        console.log(
          `| ${ms} ms | ${label} | ${Math.max(...samples.map((sample) => sample.stallMs)).toFixed(0)} | ${lags[Math.floor(lags.length / 2)]!.toFixed(1)} |`,
        );
      }
    }
    const { perSecond, busy } = await contention(directory);
    console.log(
      `\n${WRITERS} processes × ${RECORDS} records into one file (synchronous full): ${perSecond.toFixed(0)} records/s, ${busy} busy failures`,
    );
    console.log(
      `${availableParallelism()} cores, load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
