import { journalConformanceCases } from '@hookline/core/testing';
import { describe, expect, test } from 'vitest';
import { testPostgres } from '../test-support/postgres.ts';
import { postgresJournal } from './postgres-journal.ts';

const server = testPostgres('postgres-journal.test.ts');
const record = (task: string) => ({ preset: 'task', event: 'after_merge', context: { event: 'after_merge', task }, hooks: ['after_merge-01'] });

describe.skipIf(server === undefined)('postgresJournal', () => {
  describe('the journal contract', () => {
    let count = 0;
    for (const check of journalConformanceCases({ create: (settings) => postgresJournal({ url: server!.url(), schema: 'conformance', tablePrefix: `case_${count++}_`, ...settings }) })) {
      test(check.name, check.run);
    }
  });

  test('connects to nothing until used; then makes its schema and tables under the configured names, at schema version 1', async () => {
    const url = server!.createDatabase('fresh');
    const journal = postgresJournal({ url, schema: 'hooks', tablePrefix: 'app_' });
    const connections = (): string => server!.psql(`SELECT count(*) FROM pg_stat_activity WHERE datname = 'fresh' AND application_name = 'hookline-journal'`).trim();
    try {
      expect(connections()).toBe('0');
      expect(server!.psql(`SELECT count(*) FROM pg_namespace WHERE nspname = 'hooks'`, 'fresh').trim()).toBe('0');
      expect(await journal.list()).toEqual([]);
      expect(Number(connections())).toBeGreaterThan(0);
    } finally {
      await journal.doClose();
    }
    expect(server!.psql(`SELECT tablename FROM pg_tables WHERE schemaname = 'hooks' ORDER BY 1`, 'fresh').trim().split('\n')).toEqual(['app_journal', 'app_meta']);
    expect(server!.psql(`SELECT value FROM hooks.app_meta WHERE key = 'schema_version'`, 'fresh').trim()).toBe('2');
  });

  test('tables of schema 1 (before the claim function) are brought to schema 2 on open, their entries kept and claimable', async () => {
    const url = server!.createDatabase('schema_one');
    const first = postgresJournal({ url });
    const id = await first.doRecord(record('t-1'), 'gone-engine', 0);
    await first.doClose();
    // What schema 1 left: the same tables, no claim function, version 1.
    server!.psql(`DROP FUNCTION hookline_claim_entry; UPDATE hookline_meta SET value = '1' WHERE key = 'schema_version'`, 'schema_one');
    const upgraded = postgresJournal({ url });
    try {
      expect((await upgraded.doClaim('worker', 60_000))?.id).toBe(id);
      expect(server!.psql(`SELECT value FROM hookline_meta WHERE key = 'schema_version'`, 'schema_one').trim()).toBe('2');
      expect(server!.psql(`SELECT count(*) FROM pg_proc WHERE proname = 'hookline_claim_entry'`, 'schema_one').trim()).toBe('1');
    } finally {
      await upgraded.doClose();
    }
  });

  test('journals with other schemas or prefixes in one database do not see each other', async () => {
    const url = server!.createDatabase('shared');
    const [first, second, third] = [postgresJournal({ url }), postgresJournal({ url, tablePrefix: 'other_' }), postgresJournal({ url, schema: 'elsewhere' })];
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
    const journals = Array.from({ length: 8 }, () => postgresJournal({ url, schema: 'fresh_schema', maxConnections: 2 }));
    try {
      const ids = await Promise.all(journals.map((journal, index) => journal.doRecord(record(`t-${index}`), 'a', 60_000)));
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
      expect(await worker.doClaim('worker', 60_000)).toMatchObject({ id: held, attempts: 2, owner: 'worker', lastError: 'for a worker' });
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
      const serverNow = Number(server!.psql(`SELECT floor(extract(epoch FROM now()) * 1000)`).trim());
      const stats = await journal.stats();
      expect(stats).toMatchObject({ pending: 0, leased: 1, deadLettered: 0, highestAttempts: 1 });
      expect(Math.abs(stats.now - serverNow)).toBeLessThan(10_000);
      expect(stats.oldestCreatedAt).toBe((await journal.list())[0]!.createdAt);
    } finally {
      await journal.doClose();
    }
  });
});
