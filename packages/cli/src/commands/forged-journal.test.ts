import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sqliteJournal } from '@hookline/journal-sqlite';
import {
  isSameProcess,
  localHostIdentity,
  processIdentity,
  type ProcessIdentity,
} from '@hookline/runner-command/process-identity';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { waitFor } from '../../test-support/processes.ts';
import { finished, makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';

// The reported break, through the built CLI: a sandboxed hook inserts a row into .hookline/journal.db
// naming a victim's process group with an empty start time and a context of its own; the next
// `hookline run` (or `hookline worker`) must not signal the victim, must not run the forged
// context's hooks, and must say so.

let scratch: Scratch;
let victim: ChildProcess;
let identity: ProcessIdentity;
beforeEach(async () => {
  scratch = makeScratch();
  scratch.write('hookline.toml', `preset = "task"\n\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> marker']\n`);
  victim = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => victim.once('spawn', resolve));
  identity = processIdentity(victim.pid)!;
});
afterEach(() => {
  victim.kill('SIGKILL');
  scratch.cleanup();
});

const journalFile = (): string => join(scratch.path, '.hookline', 'journal.db');
const marker = (): string =>
  existsSync(join(scratch.path, 'marker')) ? readFileSync(join(scratch.path, 'marker'), 'utf8') : '';

async function forgeRow(task: string, start: string, seal: string | null = null): Promise<void> {
  // The journal exists (an earlier run made it); the hook only adds its row.
  const journal = sqliteJournal({ path: journalFile() });
  await journal.list();
  await journal.doClose();
  const database = new DatabaseSync(journalFile());
  // A worker may be polling the file meanwhile: wait for its lock as the journal itself does.
  database.exec('PRAGMA busy_timeout = 10000');
  database
    .prepare(
      'INSERT INTO hookline_journal (preset, event, context, hooks, created_at, attempts, available_at, process_groups, seal) VALUES (?, ?, ?, ?, ?, 1, 0, ?, ?)',
    )
    .run(
      'task',
      'after_merge',
      JSON.stringify({ event: 'after_merge', task, cwd: scratch.path }),
      '["after_merge-01"]',
      Date.now(),
      JSON.stringify([{ host: localHostIdentity(), pid: identity.pid, start }]),
      seal,
    );
  database.close();
}

test('hookline run: a forged row with an empty start time naming a live group — the victim survives, the forged hooks do not run, the user is told; retry --trust is the way back', async () => {
  await forgeRow('forged', '');
  const result = await runCli(['run'], { cwd: scratch.path, input: '{"event":"after_merge","task":"real"}\n' });
  expect(result.code, result.stderr).toBe(0);
  expect(isSameProcess(identity)).toBe(true);
  // Only the real event's hook ran.
  expect(marker()).toBe('real\n');
  expect(result.stderr).toContain(
    'hookline: warning: after_merge for task "forged" (journal entry 1, attempt 2) was dead-lettered, not run — refused: it has no seal',
  );
  expect(result.stderr).toContain('Its 1 recorded process group was not signalled.');
  expect(result.stderr).toContain('hookline journal retry 1 --trust');

  // `journal ls` shows it, dead-lettered with the reason.
  const listed = await runCli(['journal', 'ls'], { cwd: scratch.path });
  expect(listed.stdout).toMatch(/1\s+after_merge\s+dead-lettered\s.*refused: it has no seal/);

  // A plain retry is refused: it would only be refused again, and only a person can vouch for it.
  const plain = await runCli(['journal', 'retry', '1'], { cwd: scratch.path });
  expect(plain.code).toBe(1);
  expect(plain.stderr).toContain('Entry 1 has no seal');
  expect(plain.stderr).toContain('hookline journal retry 1 --trust');
  // Vouched for: sealed with the user's key; its process groups are forgotten, never signalled.
  const trusted = await runCli(['journal', 'retry', '1', '--trust'], { cwd: scratch.path });
  expect(trusted.stdout).toBe(
    'entry 1 is pending again, sealed with your key (its recorded process groups were forgotten)\n',
  );
  const again = await runCli(['run'], { cwd: scratch.path, input: '' });
  expect(again.stderr).toContain(
    'resumed after_merge for task "forged" (journal entry 1, attempt 1): after_merge-01 ok',
  );
  expect(marker()).toBe('real\nforged\n');
  expect(isSameProcess(identity)).toBe(true);
}, 60_000);

test('hookline worker: forged rows (wrong seals, the right start time) are refused as they come — the victim survives, the hooks do not run', async () => {
  await forgeRow('forged-1', identity.start, `v1.${'0'.repeat(64)}`);
  const worker = startCli(['worker', '--poll-ms', '50'], { cwd: scratch.path });
  worker.stdin!.end();
  const done = finished(worker);
  let stderr = '';
  worker.stderr!.on('data', (chunk: Buffer | string) => (stderr += String(chunk)));
  await waitFor('the worker to refuse the first row', () =>
    stderr.includes('journal entry 1 (after_merge) was dead-lettered, not run — refused: its seal does not verify'),
  );
  await forgeRow('forged-2', identity.start, `v1.${'ab'.repeat(32)}`);
  await waitFor('the worker to refuse the second row', () =>
    stderr.includes('journal entry 2 (after_merge) was dead-lettered, not run'),
  );
  worker.kill('SIGTERM');
  const result = await done;
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('refused 2');
  expect(isSameProcess(identity)).toBe(true);
  expect(marker()).toBe('');
}, 60_000);

test('the journal key: made 0600 in a 0700 folder outside the project; one others can read, or of another user, is refused with what to do, and the hooks run unjournaled', async () => {
  const state = mkdtempSync(join(tmpdir(), 'hookline-key-test-'));
  try {
    const env = { XDG_STATE_HOME: state };
    const first = await runCli(['emit', 'after_merge', '--set', 'task=t-1'], { cwd: scratch.path, env });
    expect(first.code, first.stderr).toBe(0);
    const key = join(state, 'hookline', 'journal.key');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(statSync(join(state, 'hookline')).mode & 0o777).toBe(0o700);
    expect(readFileSync(key, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);

    chmodSync(key, 0o644);
    const open = await runCli(['emit', 'after_merge', '--set', 'task=t-2', '--json'], { cwd: scratch.path, env });
    expect(open.code).toBe(0);
    expect(JSON.parse(open.stdout).warnings).toEqual([
      expect.stringContaining(`The journal key file ${key} can be reached by other users (mode 644); run chmod 600`),
    ]);
    expect(marker()).toBe('t-1\nt-2\n');

    chmodSync(key, 0o600);
    chownSync(key, 4242, 4242);
    const foreign = await runCli(['emit', 'after_merge', '--set', 'task=t-3', '--json'], { cwd: scratch.path, env });
    expect(JSON.parse(foreign.stdout).warnings).toEqual([
      expect.stringContaining('belongs to another user (uid 4242)'),
    ]);
    expect(marker()).toBe('t-1\nt-2\nt-3\n');
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}, 60_000);

test('HOOKLINE_JOURNAL_KEY replaces the key file (the same value on every worker); an entry sealed with another key is refused', async () => {
  const keyA = 'a'.repeat(64);
  const release = join(scratch.path, 'release');
  scratch.write(
    'hookline.toml',
    `preset = "task"\n\n[hooks]\nafter_merge = ['echo "$ARC_TASK" >> marker; while [ ! -f release ]; do sleep 0.05; done']\n`,
  );
  // Journaled with key A, then killed before the hook ends.
  const child = startCli(['emit', 'after_merge', '--set', 'task=t-1'], {
    cwd: scratch.path,
    env: { HOOKLINE_JOURNAL_KEY: keyA },
  });
  child.stdin!.end();
  const done = finished(child);
  await waitFor('the hook to start', () => marker() === 't-1\n');
  child.kill('SIGKILL');
  await done;
  writeFileSync(release, '');
  // Another key: refused. (Its process group — the orphaned hook — is not signalled either; it ends on its own.)
  const other = await runCli(['run'], { cwd: scratch.path, input: '', env: { HOOKLINE_JOURNAL_KEY: 'b'.repeat(64) } });
  expect(other.stderr).toContain('refused: its seal does not verify');
  expect(marker()).toBe('t-1\n');
  const bad = await runCli(['emit', 'after_merge', '--set', 'task=t-2', '--json'], {
    cwd: scratch.path,
    env: { HOOKLINE_JOURNAL_KEY: 'short' },
  });
  expect(JSON.parse(bad.stdout).warnings).toEqual([
    expect.stringContaining('HOOKLINE_JOURNAL_KEY must be at least 64 hex digits'),
  ]);
}, 60_000);
