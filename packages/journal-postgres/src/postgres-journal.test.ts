import { journalConformanceCases } from '@hookline/core/testing';
import { describe, expect, test } from 'vitest';
import { testPostgres } from '../test-support/postgres.ts';
import { postgresJournal } from './postgres-journal.ts';

const server = testPostgres('postgres-journal.test.ts');
const record = (task: string) => ({
  preset: 'task',
  event: 'after_merge',
  context: { event: 'after_merge', task },
  hooks: ['after_merge-01'],
});

describe.skipIf(server === undefined)('postgresJournal', () => {
  describe('the journal contract', () => {
    let count = 0;
    for (const check of journalConformanceCases({
      ownPid: process.pid,
      create: (settings) =>
        postgresJournal({ url: server!.url(), schema: 'conformance', tablePrefix: `case_${count++}_`, ...settings }),
    })) {
      test(check.name, check.run);
    }
  });

  test('connects to nothing until used; then makes its schema and tables under the configured names, at the current schema version', async () => {
    const url = server!.createDatabase('fresh');
    const journal = postgresJournal({ url, schema: 'hooks', tablePrefix: 'app_' });
    const connections = (): string =>
      server!
        .psql(`SELECT count(*) FROM pg_stat_activity WHERE datname = 'fresh' AND application_name = 'hookline-journal'`)
        .trim();
    try {
      expect(connections()).toBe('0');
      expect(server!.psql(`SELECT count(*) FROM pg_namespace WHERE nspname = 'hooks'`, 'fresh').trim()).toBe('0');
      expect(await journal.list()).toEqual([]);
      expect(Number(connections())).toBeGreaterThan(0);
    } finally {
      await journal.doClose();
    }
    expect(
      server!.psql(`SELECT tablename FROM pg_tables WHERE schemaname = 'hooks' ORDER BY 1`, 'fresh').trim().split('\n'),
    ).toEqual(['app_disabled_targets', 'app_journal', 'app_meta']);
    expect(server!.psql(`SELECT value FROM hooks.app_meta WHERE key = 'schema_version'`, 'fresh').trim()).toBe('5');
  });

  for (const [version, drop] of [
    [
      1,
      'DROP FUNCTION hookline_claim_entry; DROP FUNCTION hookline_claim_next; ALTER TABLE hookline_journal DROP COLUMN seal; ALTER TABLE hookline_journal DROP COLUMN deliveries; DROP TABLE hookline_disabled_targets',
    ],
    [
      2,
      'DROP FUNCTION hookline_claim_next; ALTER TABLE hookline_journal DROP COLUMN seal; ALTER TABLE hookline_journal DROP COLUMN deliveries; DROP TABLE hookline_disabled_targets',
    ],
    [
      3,
      'ALTER TABLE hookline_journal DROP COLUMN seal CASCADE; ALTER TABLE hookline_journal DROP COLUMN deliveries CASCADE; DROP TABLE hookline_disabled_targets',
    ],
    [4, 'ALTER TABLE hookline_journal DROP COLUMN deliveries CASCADE; DROP TABLE hookline_disabled_targets'],
  ] as const) {
    test(`tables of schema ${version} (before ${['the claim functions', 'the clear-and-claim function', 'seals', 'delivery attempts'][version - 1]}) are brought to schema 5 on open, their entries kept and claimable`, async () => {
      const database = `schema_${version}`;
      const url = server!.createDatabase(database);
      const first = postgresJournal({ url });
      const ids = [
        await first.doRecord(record('t-1'), 'gone-engine', 0),
        await first.doRecord(record('t-2'), 'gone-engine', 0),
      ];
      await first.doClose();
      // What that schema left: the same tables, fewer functions, its version.
      server!.psql(`${drop}; UPDATE hookline_meta SET value = '${version}' WHERE key = 'schema_version'`, database);
      const upgraded = postgresJournal({ url });
      try {
        const claimed = await upgraded.doClaim('worker', 60_000);
        expect(claimed?.id).toBe(ids[0]);
        // The clear rides with the next claim, through the function the upgrade made.
        const [cleared, next] = await Promise.all([
          upgraded.doComplete(claimed!.id, 'worker'),
          upgraded.doClaim('worker', 60_000),
        ]);
        expect([cleared, next?.id]).toEqual([true, ids[1]]);
        expect(server!.psql(`SELECT value FROM hookline_meta WHERE key = 'schema_version'`, database).trim()).toBe('5');
        expect(
          server!
            .psql(`SELECT proname FROM pg_proc WHERE proname LIKE 'hookline_claim_%' ORDER BY 1`, database)
            .trim()
            .split('\n'),
        ).toEqual(['hookline_claim_entry', 'hookline_claim_next']);
      } finally {
        await upgraded.doClose();
      }
    });
  }

  test("a clear and its holder's next claim in one tick go as one call; another holder's claim does not carry it", async () => {
    const database = 'claim_next';
    const url = server!.createDatabase(database);
    // Counts calls of PL/pgSQL functions, to see which calls carried a clear.
    server!.psql(`ALTER DATABASE ${database} SET track_functions = 'pl'`);
    const journal = postgresJournal({ url });
    const calls = (): string =>
      server!
        .psql(`SELECT funcname || '=' || calls FROM pg_stat_user_functions ORDER BY 1`, database)
        .trim()
        .replaceAll('\n', ' ');
    try {
      const ids: string[] = [];
      for (const task of ['t-1', 't-2', 't-3']) ids.push(await journal.doRecord(record(task), 'recorder', 0));
      const first = await journal.doClaim('w', 60_000);
      // Carried: one call clears the first entry and claims the second.
      const [firstCleared, second] = await Promise.all([
        journal.doComplete(first!.id, 'w'),
        journal.doClaim('w', 60_000),
      ]);
      expect([first?.id, firstCleared, second?.id]).toEqual([ids[0], true, ids[1]]);
      // Another holder's claim leaves w's clear to go by itself.
      const [secondCleared, third] = await Promise.all([
        journal.doComplete(second!.id, 'w'),
        journal.doClaim('other', 60_000),
      ]);
      expect([secondCleared, third?.id, third?.owner]).toEqual([true, ids[2], 'other']);
      // Carried, for an entry w no longer holds: not cleared, and the claim still answers (nothing due).
      const [again, none] = await Promise.all([journal.doComplete(first!.id, 'w'), journal.doClaim('w', 60_000)]);
      expect([again, none]).toEqual([false, undefined]);
      // A clear nobody claims after goes by itself.
      expect(await journal.doComplete(third!.id, 'other')).toBe(true);
      expect(await journal.list()).toEqual([]);
    } finally {
      await journal.doClose();
    }
    // A backend's function counts reach the statistics when it exits, a moment after the pool closed.
    // Four claims, two of which carried a clear (a carried claim calls the claim function too).
    const expected = 'hookline_claim_entry=4 hookline_claim_next=2';
    for (let waited = 0; calls() !== expected && waited < 5_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls()).toBe(expected);
  });

  test('journals with other schemas or prefixes in one database do not see each other', async () => {
    const url = server!.createDatabase('shared');
    const [first, second, third] = [
      postgresJournal({ url }),
      postgresJournal({ url, tablePrefix: 'other_' }),
      postgresJournal({ url, schema: 'elsewhere' }),
    ];
    try {
      const id = await first.doRecord(record('t-1'), 'a', 60_000);
      await first.doRelease(id, 'a', 'handed over');
      expect(await second.doClaim('b', 60_000)).toBeUndefined();
      expect(await third.doClaim('b', 60_000)).toBeUndefined();
      expect(await second.list()).toEqual([]);
      expect((await first.doClaim('b', 60_000))?.id).toBe(id);
    } finally {
      await Promise.all([first.doClose(), second.doClose(), third.doClose()]);
    }
  });

  test('many journals opening one new database at once agree on one schema (advisory lock)', async () => {
    const url = server!.createDatabase('racing');
    const journals = Array.from({ length: 8 }, () =>
      postgresJournal({ url, schema: 'fresh_schema', maxConnections: 2 }),
    );
    try {
      const ids = await Promise.all(
        journals.map((journal, index) => journal.doRecord(record(`t-${index}`), 'a', 60_000)),
      );
      expect(new Set(ids).size).toBe(8);
      expect(server!.psql(`SELECT count(*) FROM fresh_schema.hookline_meta`, 'racing').trim()).toBe('1');
    } finally {
      await Promise.all(journals.map((journal) => journal.doClose()));
    }
  });

  test('an idle waiter of one journal wakes when another journal (another connection) records an entry for others or releases one', async () => {
    const url = server!.createDatabase('notify');
    const worker = postgresJournal({ url });
    const emitter = postgresJournal({ url });
    try {
      expect(await worker.doWaitForWork(30_000)).toBe(true); // the first wait: LISTEN starts, nothing is known yet
      const recorded = worker.doWaitForWork(30_000);
      const forWorkers = await emitter.doRecord(record('t-1'), 'emitter', 0);
      expect(await recorded).toBe(true);
      expect(await worker.doClaim('worker', 60_000)).toMatchObject({ id: forWorkers, attempts: 2, owner: 'worker' });
      // An entry its recorder holds is nobody else's until released: only the release wakes the waiter.
      const held = await emitter.doRecord(record('t-2'), 'emitter', 60_000);
      const released = worker.doWaitForWork(30_000);
      await emitter.doRelease(held, 'emitter', 'for a worker');
      expect(await released).toBe(true);
      expect(await worker.doClaim('worker', 60_000)).toMatchObject({
        id: held,
        attempts: 2,
        owner: 'worker',
        lastError: 'for a worker',
      });
    } finally {
      await Promise.all([worker.doClose(), emitter.doClose()]);
    }
  });

  test('after the server restarts, the journal reconnects and an idle waiter is woken (what was notified meanwhile is lost)', async () => {
    const url = server!.createDatabase('restarting');
    const journal = postgresJournal({ url });
    try {
      const id = await journal.doRecord(record('t-1'), 'a', 60_000);
      expect(await journal.doWaitForWork(0)).toBe(true); // LISTEN starts
      const waiting = journal.doWaitForWork(30_000);
      server!.restart();
      expect(await waiting).toBe(true);
      // The pool noticed its connections dropped while idle, and opens new ones.
      expect((await journal.list()).map((entry) => entry.id)).toEqual([id]);
      expect(await journal.doComplete(id, 'a')).toBe(true);
    } finally {
      await journal.doClose();
    }
  });

  test('stats are counted on the server, with its clock', async () => {
    const url = server!.createDatabase('counting');
    const journal = postgresJournal({ url });
    try {
      expect(await journal.stats()).toMatchObject({ pending: 0, leased: 0, deadLettered: 0, highestAttempts: 0 });
      expect((await journal.stats()).oldestCreatedAt).toBeUndefined();
      await journal.doRecord(record('t-1'), 'a', 60_000);
      const serverNow = (): number =>
        Number(server!.psql(`SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)`).trim());
      const before = serverNow();
      const stats = await journal.stats();
      const after = serverNow();
      expect(stats).toMatchObject({ pending: 0, leased: 1, deadLettered: 0, highestAttempts: 1 });
      // Read on the server between two readings of its clock.
      expect(stats.now).toBeGreaterThanOrEqual(before);
      expect(stats.now).toBeLessThanOrEqual(after + 1);
      expect(stats.oldestCreatedAt).toBe((await journal.list())[0]!.createdAt);
    } finally {
      await journal.doClose();
    }
  });
});
