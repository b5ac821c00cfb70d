import { inspect } from 'node:util';
import { JournalError } from '@hookline/core';
import { describe, expect, test } from 'vitest';
import { TEST_PASSWORD, testPostgres } from '../test-support/postgres.ts';
import { postgresJournal, type PostgresJournalSettings } from './postgres-journal.ts';

const server = testPostgres('bad-input.test.ts');

// Everything a log could show of an error: message, stack, every property, the causes.
function everythingShown(error: unknown): string {
  return [
    inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify(error, Object.getOwnPropertyNames(error)),
    String((error as Error).stack),
  ].join('\n');
}

async function failureOf(settings: PostgresJournalSettings, use: 'list' | 'wait' = 'list'): Promise<JournalError> {
  const journal = postgresJournal({ connectTimeoutSeconds: 3, ...settings });
  try {
    if (use === 'list') await journal.list();
    else await journal.doWaitForWork(1_000);
  } catch (error) {
    expect(error).toBeInstanceOf(JournalError);
    return error as JournalError;
  } finally {
    await journal.doClose();
  }
  throw new Error('the journal did not fail');
}

describe.skipIf(server === undefined)('bad input: a one-line error saying what to do, the password never shown', () => {
  const port = (): number => server!.port;
  const checkShown = (error: JournalError): void => {
    expect(error.message.split('\n')).toHaveLength(1);
    expect(everythingShown(error)).not.toContain(TEST_PASSWORD);
  };

  test('a server that cannot be reached', async () => {
    // A port nobody listens on: the server's, after it was freed, is not safe; port 1 needs root to listen.
    for (const use of ['list', 'wait'] as const) {
      const error = await failureOf({ url: `postgres://hookline:${TEST_PASSWORD}@127.0.0.1:1/postgres` }, use);
      expect(error.message).toMatch(
        /^The hook journal postgres:\/\/hookline:\*\*\*@127\.0\.0\.1:1\/postgres cannot be reached \(.*ECONNREFUSED.*\)\. Check that the PostgreSQL server runs and that the URL's host and port are right\.$/,
      );
      expect(error.location).toBe('postgres://hookline:***@127.0.0.1:1/postgres');
      checkShown(error);
    }
  });

  test('a wrong password, in the URL or in PGPASSWORD', async () => {
    const wrong = `${TEST_PASSWORD}-wrong`;
    const error = await failureOf({
      url: `postgres://hookline:${encodeURIComponent(wrong)}@127.0.0.1:${port()}/postgres`,
    });
    expect(error.message).toMatch(
      /^The hook journal postgres:\/\/hookline:\*\*\*@127\.0\.0\.1:\d+\/postgres refused the login \(.*password authentication failed.*\)\. Put the right user and password/,
    );
    checkShown(error);
    expect(everythingShown(error)).not.toContain(wrong);
    // The cause is the scrubbed copy, typed, with the server's SQLSTATE for invalid_password.
    expect(error.cause).toMatchObject({
      name: 'PostgresFailureCause',
      code: 'HOOKLINE_POSTGRES_FAILED',
      reason: '28P01',
    });
    const saved = process.env['PGPASSWORD'];
    process.env['PGPASSWORD'] = wrong;
    try {
      const fromEnvironment = await failureOf({ url: `postgres://hookline@127.0.0.1:${port()}/postgres` });
      expect(fromEnvironment.message).toMatch(/refused the login/);
      expect(everythingShown(fromEnvironment)).not.toContain(wrong);
    } finally {
      if (saved === undefined) delete process.env['PGPASSWORD'];
      else process.env['PGPASSWORD'] = saved;
    }
  });

  test('the password from PGPASSWORD is used when the URL has none', async () => {
    const saved = process.env['PGPASSWORD'];
    process.env['PGPASSWORD'] = TEST_PASSWORD;
    const journal = postgresJournal({
      url: `postgres://hookline@127.0.0.1:${port()}/postgres`,
      schema: 'from_environment',
    });
    try {
      expect(await journal.list()).toEqual([]);
    } finally {
      await journal.doClose();
      if (saved === undefined) delete process.env['PGPASSWORD'];
      else process.env['PGPASSWORD'] = saved;
    }
  });

  test('a database that does not exist', async () => {
    const error = await failureOf({ url: server!.url('no_such_db') });
    expect(error.message).toMatch(
      /^The hook journal postgres:\/\/hookline:\*\*\*@127\.0\.0\.1:\d+\/no_such_db names a database that does not exist \(.*\)\. Create it \(createdb NAME\) or fix the URL's database\.$/,
    );
    checkShown(error);
  });

  test('tables of a newer schema version are refused and left as they are', async () => {
    const url = server!.createDatabase('newer');
    const journal = postgresJournal({ url });
    await journal.list();
    await journal.doClose();
    server!.psql(`UPDATE hookline_meta SET value = '99' WHERE key = 'schema_version'`, 'newer');
    const error = await failureOf({ url });
    expect(error.message).toBe(
      `The hook journal postgres://hookline:***@127.0.0.1:${port()}/newer was written by a newer @hookline/journal-postgres (schema 99; this one knows 5). Upgrade @hookline/journal-postgres on this machine; the tables were left as they are.`,
    );
    checkShown(error);
    expect(server!.psql(`SELECT value FROM hookline_meta WHERE key = 'schema_version'`, 'newer').trim()).toBe('99');
  });

  test('settings are checked when the journal is made, before any connection', () => {
    expect(() => postgresJournal({ url: `mysql://hookline:${TEST_PASSWORD}@127.0.0.1/x` })).toThrow(
      'url must be a postgres:// or postgresql:// URL, got "mysql://hookline:***@127.0.0.1/x".',
    );
    expect(() => postgresJournal({ url: server!.url(), schema: 'Bad-Name' })).toThrow(
      /^postgresJournal: schema must be a lower-case SQL identifier/,
    );
    expect(() => postgresJournal({ url: server!.url(), tablePrefix: '1x' })).toThrow(
      /^postgresJournal: tablePrefix must be lower-case letters/,
    );
    expect(() => postgresJournal({ url: server!.url(), schema: 's'.repeat(60) })).toThrow(
      /too long for PostgreSQL's 63-character names/,
    );
    // Short enough for the table names, one character too long for the claim function's.
    expect(() => postgresJournal({ url: server!.url(), schema: 'a', tablePrefix: 'p'.repeat(53) })).toThrow(
      'tablePrefix is too long for PostgreSQL\'s 63-character names ("' + 'p'.repeat(53) + 'claim_entry"); shorten it.',
    );
    expect(() => postgresJournal({ url: server!.url(), maxAttempts: 0 })).toThrow(
      'maxAttempts must be an integer of at least 1, got 0.',
    );
    expect(() => postgresJournal({ url: server!.url(), maxConnections: 1.5 })).toThrow(
      expect.objectContaining({ code: 'HOOKLINE_INVALID_OPTION', option: 'maxConnections' }),
    );
  });
});
