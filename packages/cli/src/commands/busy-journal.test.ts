import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteJournal } from '@hookline/journal-sqlite';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, startCli, finished, type Scratch } from '../../test-support/run-cli.ts';

// A journal another process keeps locked is busy, not unusable: `hookline emit` waits for it
// (`[journal] busy_timeout_ms`, default 30 s) and, past that, reports the durable hook failed —
// it never runs it unjournaled, where a failed delivery would never be retried.

let scratch: Scratch;
const holders: Array<ReturnType<typeof spawn>> = [];
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => {
  for (const holder of holders.splice(0)) holder.kill('SIGKILL');
  scratch.cleanup();
});

const journalFile = (): string => join(scratch.path, '.hookline/journal.db');
const runs = (): string[] =>
  existsSync(join(scratch.path, 'ran.txt'))
    ? readFileSync(join(scratch.path, 'ran.txt'), 'utf8').split('\n').filter(Boolean)
    : [];

// Another process takes the journal's write lock (BEGIN IMMEDIATE) and keeps it until a line arrives on its stdin.
const HOLDER = `const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { timeout: 10000 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
process.stdin.once('data', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });`;

async function holdLock(): Promise<{ release(): Promise<void> }> {
  const holder = spawn(process.execPath, ['-e', HOLDER, journalFile()], { stdio: ['pipe', 'pipe', 'inherit'] });
  holders.push(holder);
  const exited = new Promise<void>((resolve) => holder.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let text = '';
    holder.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('locked')) resolve();
    });
    holder.once('close', () => reject(new Error(`the lock holder ended before it took the lock: ${text}`)));
  });
  return {
    async release() {
      holder.stdin.write('go\n');
      await exited;
    },
  };
}

async function makeJournal(): Promise<void> {
  const journal = sqliteJournal({ path: journalFile() });
  await journal.stats();
  await journal.doClose();
}

test('the journal locked past [journal] busy_timeout_ms: `hookline emit` reports the durable hook failed, naming the journal, and does not run it', async () => {
  scratch.write(
    'hookline.toml',
    `preset = "task"\n\n[journal]\nbusy_timeout_ms = 300\n\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> ran.txt']\n`,
  );
  await makeJournal();
  const lock = await holdLock();
  const result = await runCli(['emit', 'after_merge', '--set', 'task=t-1', '--json'], { cwd: scratch.path });
  await lock.release();
  const outcome = JSON.parse(result.stdout) as { hooks: Array<Record<string, unknown>>; warnings: string[] };
  expect(outcome.hooks).toMatchObject([{ name: 'after_merge-01', status: 'failed' }]);
  expect(String(outcome.hooks[0]!['error'])).toContain(
    `could not journal the durable hooks "after_merge-01": The hook journal ${journalFile()} stayed locked by another process for`,
  );
  // [journal] busy_timeout_ms reached the journal.
  expect(String(outcome.hooks[0]!['error'])).toContain('past its busy timeout of 300 ms');
  expect(outcome.warnings.join('\n')).toContain('they did not run');
  expect(outcome.warnings.join('\n')).not.toContain('they run now');
  expect(runs()).toEqual([]);

  // The lock gone, the next emit journals and runs its hook.
  const next = await runCli(['emit', 'after_merge', '--set', 'task=t-2', '--json'], { cwd: scratch.path });
  expect(JSON.parse(next.stdout)).toMatchObject({ hooks: [{ status: 'ok' }], warnings: [] });
  expect(runs()).toEqual(['t-2']);
});

test('the journal locked longer than the old 5 s busy timeout: `hookline emit` waits under the default and journals the hook once the lock is released', async () => {
  scratch.write('hookline.toml', `preset = "task"\n\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> ran.txt']\n`);
  await makeJournal();
  const lock = await holdLock();
  const child = startCli(['emit', 'after_merge', '--set', 'task=t-1', '--json'], { cwd: scratch.path });
  child.stdin!.end();
  const done = finished(child);
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(runs()).toEqual([]);
  await lock.release();
  const result = await done;
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ hooks: [{ status: 'ok' }], warnings: [] });
  expect(runs()).toEqual(['t-1']);
});
