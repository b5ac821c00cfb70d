// A session outside the journal holds a lock the journal's INSERT needs. Past the journal's lock
// timeout the record fails as busy (HOOKLINE_JOURNAL_BUSY), and the engine reports the emit's
// durable hooks failed: not run, not recorded — the same rule as the SQLite journal's busy lock.
import { createHookEngine, JournalError, loadConfig } from '@hookline/core';
import { scriptedRunner } from '@hookline/core/testing';
import postgres from 'postgres';
import { describe, expect, test } from 'vitest';
import { testPostgres } from '../test-support/postgres.ts';
import { describePostgresFailure } from './postgres-failure.ts';
import { postgresJournal, type PostgresJournalSettings } from './postgres-journal.ts';

const server = testPostgres('busy-journal.test.ts');
const config = `
[[hooks]]
name = "notify"
event = "stage_complete"
type = "scripted"
durable = true
[[hooks]]
name = "log"
event = "stage_complete"
type = "scripted"
`;

/** Runs `use` while another session holds `LOCK TABLE hookline_journal IN EXCLUSIVE MODE` (INSERTs wait). */
async function whileLocked<T>(url: string, use: () => Promise<T>): Promise<T> {
  const other = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    let result: T | undefined;
    await other.begin(async (transaction) => {
      await transaction.unsafe('LOCK TABLE hookline_journal IN EXCLUSIVE MODE');
      result = await use();
    });
    return result!;
  } finally {
    await other.end({ timeout: 5 });
  }
}

async function emitWhileLocked(url: string, settings: Partial<PostgresJournalSettings>) {
  const journal = postgresJournal({ url, ...settings });
  await journal.list(); // the tables exist before the other session locks one
  const runner = scriptedRunner();
  const engine = createHookEngine({
    config: loadConfig([{ text: config, source: 'busy.toml' }], { runners: [runner] }),
    runners: [runner],
    journal,
    journalKey: new Uint8Array(32).fill(3),
  });
  try {
    const direct = await whileLocked(url, () =>
      journal.doRecord({ preset: 'default', event: 'stage_complete', context: {}, hooks: ['notify'] }, 'me', 0).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    const outcome = await whileLocked(url, () =>
      engine.emit('stage_complete', { run_id: 'r-1', workflow_name: 'ci', node_id: 'deploy' }),
    );
    const settled = await outcome.settled;
    return { direct, settled, runner, entries: await journal.list() };
  } finally {
    await engine.close();
  }
}

describe.skipIf(server === undefined)('a journal kept waiting by another session is busy, not unusable', () => {
  test('past lockTimeoutMs (55P03): the durable hook is reported failed, does not run and is not recorded; the others run', async () => {
    const { direct, settled, runner, entries } = await emitWhileLocked(server!.createDatabase('busy_lock'), {
      lockTimeoutMs: 200,
    });
    expect(direct).toBeInstanceOf(JournalError);
    expect(direct).toMatchObject({
      code: 'HOOKLINE_JOURNAL_BUSY',
      busy: true,
      cause: expect.objectContaining({ reason: '55P03' }),
    });
    expect((direct as JournalError).message).toMatch(
      /^The hook journal postgres:\/\/hookline:\*\*\*@127\.0\.0\.1:\d+\/busy_lock is busy: another session held a lock it needed past its lock timeout of 200 ms \(canceling statement due to lock timeout\)\. The journal is fine: retry once the other session lets go, or raise lockTimeoutMs\.$/,
    );
    expect(settled.hooks.map((report) => [report.name, report.status])).toEqual([
      ['notify', 'failed'],
      ['log', 'ok'],
    ]);
    expect(settled.hooks[0]?.error).toMatch(
      /^could not journal the durable hooks "notify": The hook journal .* is busy: .* they did not run, since unjournaled a failed delivery would never be retried/,
    );
    expect(runner.calls.map((call) => call.hook)).toEqual(['log']);
    expect(entries).toEqual([]);
  });

  test("lockTimeoutMs 0 sends no setting: the server's statement_timeout (57014) is busy too", async () => {
    const url = server!.createDatabase('busy_statement');
    server!.psql(`ALTER DATABASE busy_statement SET statement_timeout = 300`);
    const { direct, settled, runner, entries } = await emitWhileLocked(url, { lockTimeoutMs: 0 });
    expect(direct).toMatchObject({
      code: 'HOOKLINE_JOURNAL_BUSY',
      cause: expect.objectContaining({ reason: '57014' }),
    });
    expect((direct as JournalError).message).toContain(
      'is busy: a statement was cancelled, by a statement or lock timeout (canceling statement due to statement timeout)',
    );
    expect(settled.hooks.map((report) => [report.name, report.status])).toEqual([
      ['notify', 'failed'],
      ['log', 'ok'],
    ]);
    expect(runner.calls.map((call) => call.hook)).toEqual(['log']);
    expect(entries).toEqual([]);
  });

  test('serialization failures and deadlocks are busy; other server errors are not', () => {
    const busy = (code: string) => describePostgresFailure({ code, message: 'x' }, 'postgres://h/db', []);
    for (const code of ['55P03', '57014', '40001', '40P01'])
      expect(busy(code)).toMatchObject({ busy: true, code: 'HOOKLINE_JOURNAL_BUSY' });
    for (const code of ['23505', '42P01', 'ECONNREFUSED'])
      expect(busy(code)).toMatchObject({ busy: false, code: 'HOOKLINE_JOURNAL_FAILED' });
  });

  test('lockTimeoutMs is checked when the journal is made', () => {
    for (const value of [-1, 1.5, 2 ** 31])
      expect(() => postgresJournal({ url: server!.url(), lockTimeoutMs: value })).toThrow(
        expect.objectContaining({ code: 'HOOKLINE_INVALID_OPTION', option: 'lockTimeoutMs' }),
      );
  });
});
