import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createHookEngine, JournalError, loadConfig } from '@hookline/core';
import { journalConformanceCases, scriptedRunner } from '@hookline/core/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { startChild } from '../test-support/child-process.ts';
import { killHookGroups, useScratchDirectory, waitFor } from '../test-support/scratch.ts';
import { isSameProcess, localHostIdentity, processIdentity } from '@hookline/runner-command/process-identity';
import { TEST_JOURNAL_KEY } from '../test-support/test-key.ts';
import { sqliteJournal } from './sqlite-journal.ts';

const scratch = useScratchDirectory();
const journalPath = (): string => join(scratch(), 'state', 'journal.db');
const record = (task: string) => ({
  preset: 'task',
  event: 'after_merge',
  context: { event: 'after_merge', task },
  hooks: ['after_merge-01'],
});

const open: Array<{ doClose?: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map(async (journal) => journal.doClose?.()));
});
function journalAt(path = journalPath(), settings: Partial<Parameters<typeof sqliteJournal>[0]> = {}) {
  const journal = sqliteJournal({ path, ...settings });
  open.push(journal);
  return journal;
}

describe('the journal contract', () => {
  let count = 0;
  for (const check of journalConformanceCases({
    ownPid: process.pid,
    create: (settings) => sqliteJournal({ path: join(scratch(), `conformance-${count++}.db`), ...settings }),
  }))
    test(check.name, check.run);
});

describe('sqliteJournal', () => {
  test('does nothing until used; then makes its folder and a WAL-mode database with the schema', async () => {
    const path = journalPath();
    const journal = journalAt(path);
    expect(existsSync(join(scratch(), 'state'))).toBe(false);
    expect(await journal.list()).toEqual([]);
    expect(existsSync(path)).toBe(true);
    const peek = new DatabaseSync(path, { readOnly: true });
    try {
      expect(peek.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(peek.prepare('PRAGMA user_version').get()).toEqual({ user_version: 5 });
    } finally {
      peek.close();
    }
  });

  test('entries survive the journal being closed and opened again, by another instance', async () => {
    const first = journalAt();
    const id = await first.doRecord(record('t-1'), 'a', 60_000);
    await first.doRelease(id, 'a', 'stopped');
    await first.doClose?.();
    const second = journalAt();
    expect(await second.list()).toEqual([
      expect.objectContaining({
        id,
        event: 'after_merge',
        context: { event: 'after_merge', task: 't-1' },
        attempts: 1,
        lastError: 'stopped',
      }),
    ]);
    expect(await second.doClaim('b', 60_000)).toMatchObject({ id, attempts: 2, owner: 'b' });
  });

  test('an entry held by a process of this host that is gone is claimable at once; a live holder keeps it', async () => {
    const path = journalPath();
    // A real process records an entry under the engine's 30-second lease and dies without completing it.
    const pids = join(scratch(), 'pids');
    const child = startChild({
      mode: 'emit',
      journal: path,
      config: 'preset = "task"\n[hooks]\nafter_merge = ["echo $$ >> pids; sleep 600"]\n',
      cwd: scratch(),
      tasks: ['t-dead'],
    });
    await waitForOutput(() => child.output(), 'journaled 1');
    expect(await waitFor(() => existsSync(pids), 20_000)).toBe(true);
    const journal = journalAt(path);
    expect(await waitFor(() => readFileSync(pids, 'utf8').trim() !== '', 20_000)).toBe(true);
    // The engine journals the hook's process group just after the spawn, so the shell can have written
    // its pid before the journal holds it: kill only once the journal does.
    let recorded = false;
    for (let tries = 0; tries < 400 && !recorded; tries++) {
      recorded = ((await journal.list())[0]?.processGroups?.length ?? 0) > 0;
      if (!recorded) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(recorded).toBe(true);
    child.process.kill('SIGKILL');
    await child.exited;
    const [held] = await journal.list();
    expect(held?.leaseExpiresAt).toBeGreaterThan(Date.now() + 10_000);
    expect(held?.processGroups).toEqual([
      {
        host: expect.any(String),
        pid: Number(readFileSync(pids, 'utf8').trim()),
        start: expect.stringMatching(/^\d+$/),
        seal: expect.stringMatching(/^v1\./),
      },
    ]);
    const hook = held!.processGroups![0]!;
    expect(isSameProcess(hook)).toBe(true);
    const claimed = await journal.doClaim('rescuer', 60_000);
    expect(claimed).toMatchObject({ context: { task: 't-dead' }, attempts: 2, owner: 'rescuer' });
    // The claim hands the group over, unsignalled: the engine checks its seal first.
    expect(claimed?.processGroups).toEqual(held?.processGroups);
    expect(isSameProcess(hook)).toBe(true);
    // Asked to, the journal ends the orphaned `sh -c 'sleep 600'` of the killed engine, and forgets it.
    expect(await journal.doEndProcessGroups(claimed!.id, 'rescuer', claimed!.processGroups!)).toEqual([]);
    expect(isSameProcess(hook)).toBe(false);
    expect((await journal.list())[0]?.processGroups).toBeUndefined();
    killHookGroups(pids);

    // Held by this very process (another engine of it): not taken, however long the lease.
    await journal.doRecord(record('t-live'), 'engine-here', 60_000);
    expect(await journal.doClaim('rescuer-2', 60_000)).toBeUndefined();
    // Held by a process this host cannot check (another host): kept until the lease ends.
    const elsewhere = journalAt(path, { hostIdentity: 'another-host' });
    await elsewhere.doRecord(record('t-remote'), 'engine-there', 100);
    expect(await journal.doClaim('rescuer-3', 60_000)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await journal.doClaim('rescuer-3', 60_000)).toMatchObject({ context: { task: 't-remote' } });
  });

  test('a holder pid that now runs another process (started at another time) is a dead holder; its groups are not signalled', async () => {
    const path = journalPath();
    const journal = journalAt(path);
    const id = await journal.doRecord(record('t-reused'), 'engine-gone', 60_000);
    // A live process that is not the holder: same pid as recorded, another start time.
    const stranger = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      const strangerPid = stranger.pid!;
      const stamp = new DatabaseSync(path);
      stamp
        .prepare('UPDATE hookline_journal SET owner_pid = ?, owner_start = ?, process_groups = ? WHERE id = ?')
        .run(
          strangerPid,
          '1',
          JSON.stringify([{ host: localHostIdentity(), pid: strangerPid, start: '1' }]),
          Number(id),
        );
      stamp.close();
      const claimed = await journal.doClaim('rescuer', 60_000);
      expect(claimed).toMatchObject({ id, attempts: 2, owner: 'rescuer' });
      // The recorded group's leader pid runs a process that started later: it is left alone, and the journal says why.
      expect(await journal.doEndProcessGroups(id, 'rescuer', claimed!.processGroups!)).toEqual([
        expect.stringContaining(`now runs another process`),
      ]);
      expect(isSameProcess(processIdentity(strangerPid)!)).toBe(true);
      // With the right start time, the same pid is a live holder and keeps its entry.
      const second = await journal.doRecord(record('t-live'), 'engine-live', 60_000);
      const real = new DatabaseSync(path);
      real
        .prepare('UPDATE hookline_journal SET owner_pid = ?, owner_start = ? WHERE id = ?')
        .run(strangerPid, processIdentity(strangerPid)!.start, Number(second));
      real.close();
      expect(await journal.doClaim('rescuer-2', 60_000)).toBeUndefined();
    } finally {
      stranger.kill('SIGKILL');
    }
  });

  test('a journal of schema 1 is migrated on open, its entries kept (unsealed: an engine with a key refuses them until retried with --trust)', async () => {
    const path = journalPath();
    mkdirSync(dirname(path), { recursive: true });
    const old = new DatabaseSync(path);
    old.exec(`CREATE TABLE hookline_journal (id INTEGER PRIMARY KEY AUTOINCREMENT, preset TEXT NOT NULL, event TEXT NOT NULL, context TEXT NOT NULL, hooks TEXT NOT NULL,
      created_at INTEGER NOT NULL, attempts INTEGER NOT NULL, last_error TEXT, available_at INTEGER NOT NULL DEFAULT 0, owner TEXT, owner_host TEXT, owner_pid INTEGER, lease_expires_at INTEGER);
      PRAGMA user_version = 1;`);
    old
      .prepare(
        'INSERT INTO hookline_journal (preset, event, context, hooks, created_at, attempts, last_error) VALUES (\'task\', \'after_merge\', \'{"event":"after_merge","task":"t-old"}\', \'["after_merge-01"]\', 1, 1, \'stopped\')',
      )
      .run();
    old.close();
    const journal = journalAt(path);
    expect(await journal.doClaim('b', 60_000)).toMatchObject({
      context: { task: 't-old' },
      attempts: 2,
      lastError: 'stopped',
    });
    const peek = new DatabaseSync(path, { readOnly: true });
    expect(peek.prepare('PRAGMA user_version').get()).toEqual({ user_version: 5 });
    // Claims walk the index of live entries (schema 5), not the dead letters in front of them.
    const plan = peek
      .prepare(
        'EXPLAIN QUERY PLAN SELECT * FROM hookline_journal WHERE id > 0 AND dead_at IS NULL AND available_at <= 0 ORDER BY id LIMIT 64',
      )
      .all()
      .map((step) => String(step['detail']));
    expect(plan).toEqual([expect.stringContaining('USING INDEX hookline_journal_live')]);
    peek.close();
  });

  test('a file that is not a database: a clear error naming it, the file untouched, nothing else lost', async () => {
    const path = journalPath();
    const garbage = 'these are not the bytes of a database\n'.repeat(100);
    const journal = journalAt(path);
    // Make the folder through a first use, then replace the file.
    await journal.list();
    await journal.doClose?.();
    writeFileSync(path, garbage);
    for (const work of [
      () => journal.list(),
      () => journal.doClaim('a', 1_000),
      () => journal.doRecord(record('t'), 'a', 1_000),
    ]) {
      const error = await work().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(JournalError);
      expect((error as JournalError).code).toBe('HOOKLINE_JOURNAL_FAILED');
      expect((error as JournalError).location).toBe(path);
      expect((error as Error).message).toBe(
        `The hook journal ${path} is corrupted or not a journal (it is not an SQLite database). Hookline left it untouched: move it aside (e.g. mv "${path}" "${path}.corrupt") to start a new journal — entries in it will not run unless you recover them.`,
      );
    }
    expect(readFileSync(path, 'utf8')).toBe(garbage);
    expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`)).toBe(false);

    // An engine on it does not crash: hooks run (with a warning that they are not durable), resume() says why.
    const runner = scriptedRunner({ type: 'command' });
    const config = loadConfig(
      [
        {
          text: 'preset = "task"\n[[hooks]]\nname = "cleanup"\nevent = "after_merge"\ntype = "command"\n',
          source: 'task.toml',
        },
      ],
      { runners: [runner] },
    );
    const engine = createHookEngine({
      config,
      runners: [runner],
      journal: sqliteJournal({ path }),
      journalKey: TEST_JOURNAL_KEY,
    });
    try {
      await expect(engine.resume()).rejects.toThrow(`The hook journal ${path} is corrupted or not a journal`);
      const outcome = await engine.emit('after_merge', { task: 't-1' });
      expect(outcome.warnings).toEqual([
        expect.stringMatching(
          /^could not journal the durable hooks "cleanup": The hook journal .* move it aside .* — they run now, but a crash before they end would lose them$/,
        ),
      ]);
      expect((await outcome.settled).hooks[0]?.status).toBe('ok');
      expect(runner.calls).toHaveLength(1);
    } finally {
      await engine.close();
    }
    expect(readFileSync(path, 'utf8')).toBe(garbage);

    // Moved aside, a new journal starts empty, and the old file is still there to recover from.
    writeFileSync(`${path}.corrupt`, readFileSync(path));
    writeFileSync(path, '');
    expect(await journal.list()).toEqual([]);
  });

  test('a database whose pages are damaged is refused by the integrity check and left as it was', async () => {
    const path = journalPath();
    const journal = journalAt(path, { synchronous: 'normal' });
    const payload = 'x'.repeat(3_000);
    for (let index = 0; index < 40; index++)
      await journal.doRecord(
        { ...record(`t-${index}`), context: { event: 'after_merge', task: `t-${index}`, payload } },
        'a',
        60_000,
      );
    await journal.doClose?.();
    // Fold the WAL into the file so that the damage below hits the only copy of the pages.
    const checkpoint = new DatabaseSync(path);
    checkpoint.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    checkpoint.close();
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(8 * 4096);
    // Scribble over the b-tree pages (keep the header page, so SQLite opens it and must find the damage).
    for (let offset = 4096; offset < bytes.length; offset += 4096) bytes.fill(0xa5, offset, offset + 64);
    writeFileSync(path, bytes);
    const before = readFileSync(path);

    const error = await journalAt(path)
      .list()
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(JournalError);
    expect((error as Error).message).toContain(`The hook journal ${path} is corrupted or not a journal (`);
    expect((error as Error).message).toContain('move it aside');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  test('an SQLite file of another program, or of a newer version, is refused', async () => {
    const other = join(scratch(), 'other.db');
    const database = new DatabaseSync(other);
    database.exec('CREATE TABLE invoices (id INTEGER)');
    database.close();
    await expect(journalAt(other).list()).rejects.toThrow(
      `The hook journal ${other} is an SQLite database with other tables (invoices), not a Hookline journal.`,
    );

    const newer = join(scratch(), 'newer.db');
    await journalAt(newer).list();
    const bump = new DatabaseSync(newer);
    bump.exec('PRAGMA user_version = 99');
    bump.close();
    await expect(sqliteJournal({ path: newer }).list()).rejects.toThrow(
      'was written by a newer @hookline/journal-sqlite (schema 99; this one knows 5)',
    );
  });

  test('a folder that cannot be made is a clear error', async () => {
    const blocker = join(scratch(), 'not-a-folder');
    writeFileSync(blocker, '');
    await expect(journalAt(join(blocker, 'journal.db')).list()).rejects.toThrow(
      `The hook journal ${join(blocker, 'journal.db')} cannot be opened: its folder cannot be made`,
    );
    expect(statSync(blocker).size).toBe(0);
  });
});

async function waitForOutput(output: () => string, text: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`the child did not print "${text}": ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
