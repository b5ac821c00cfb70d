import { DatabaseSync } from 'node:sqlite';
import { expect, test } from 'vitest';
import { CREATE_SCHEMA, JOURNAL_TABLE, readJournalRow } from './journal-schema.ts';

function rowWith(insert: string): Record<string, unknown> {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec(CREATE_SCHEMA);
    db.exec(insert);
    return db.prepare(`SELECT * FROM ${JOURNAL_TABLE}`).all()[0]!;
  } finally {
    db.close();
  }
}

test('a row as SQLite returns it is read with every column typed', () => {
  const row = rowWith(
    `INSERT INTO ${JOURNAL_TABLE} (preset, event, context, hooks, created_at, attempts, owner, owner_pid) VALUES ('task', 'after_merge', '{}', '[]', 5, 1, 'me', 42)`,
  );
  expect(readJournalRow(row)).toEqual({
    id: 1,
    preset: 'task',
    event: 'after_merge',
    context: '{}',
    hooks: '[]',
    created_at: 5,
    attempts: 1,
    last_error: null,
    available_at: 0,
    owner: 'me',
    owner_host: null,
    owner_pid: 42,
    lease_expires_at: null,
    owner_start: null,
    process_groups: null,
    dead_at: null,
    seal: null,
    deliveries: null,
  });
});

test('a column of another type fails with its name', () => {
  // SQLite keeps what it is given: a text in an INTEGER column stays text.
  const row = rowWith(
    `INSERT INTO ${JOURNAL_TABLE} (preset, event, context, hooks, created_at, attempts) VALUES ('task', 'after_merge', '{}', '[]', 'yesterday', 1)`,
  );
  expect(() => readJournalRow(row)).toThrow('column created_at of hookline_journal holds string, not an integer');
  expect(() => readJournalRow(row)).toThrow(expect.objectContaining({ code: 'HOOKLINE_JOURNAL_FAILED' }));
});
