import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { JournalError } from '@hookline/core';
import { afterEach, expect, test } from 'vitest';
import { useScratchDirectory } from '../test-support/scratch.ts';
import { JOURNAL_TABLE } from './journal-schema.ts';
import { groupCommit } from './group-commit.ts';
import { sqliteJournal } from './sqlite-journal.ts';

const scratch = useScratchDirectory();
const record = (task: string) => ({
  preset: 'task',
  event: 'after_merge',
  context: { event: 'after_merge', task },
  hooks: ['after_merge-01'],
});
const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});
function journalAt(path: string, busyTimeoutMs = 5_000) {
  const journal = sqliteJournal({ path, busyTimeoutMs });
  closing.push(() => journal.doClose());
  return journal;
}
const tasks = (path: string): string[] => {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db
      .prepare(`SELECT context FROM ${JOURNAL_TABLE} ORDER BY id`)
      .all()
      .map((row) => (JSON.parse(String(row['context'])) as { task: string }).task);
  } finally {
    db.close();
  }
};

test('writes issued together all commit, each visible to another process once its promise resolves', async () => {
  const path = join(scratch(), 'together.db');
  const journal = journalAt(path);
  const ids = await Promise.all(['a', 'b', 'c', 'd'].map((task) => journal.doRecord(record(task), 'me', 60_000)));
  expect(new Set(ids).size).toBe(4);
  expect(tasks(path)).toEqual(['a', 'b', 'c', 'd']);
  const [kept, gone] = await Promise.all([journal.doComplete(ids[1]!, 'me'), journal.doComplete(ids[2]!, 'not me')]);
  expect([kept, gone]).toEqual([true, false]);
  expect(tasks(path)).toEqual(['a', 'c', 'd']);
});

test('while another process holds the write lock past the busy timeout, every write of the batch fails and none is kept', async () => {
  const path = join(scratch(), 'locked.db');
  const journal = journalAt(path, 200);
  await journal.doRecord(record('before'), 'me', 60_000); // creates the file and its schema
  const other = new DatabaseSync(path);
  closing.push(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  const results = await Promise.allSettled(['x', 'y'].map((task) => journal.doRecord(record(task), 'me', 60_000)));
  other.exec('ROLLBACK');
  for (const result of results) {
    expect(result.status).toBe('rejected');
    expect(JournalError.isInstance((result as PromiseRejectedResult).reason)).toBe(true);
  }
  expect(tasks(path)).toEqual(['before']);
  // The lock gone, the journal writes again.
  await journal.doRecord(record('after'), 'me', 60_000);
  expect(tasks(path)).toEqual(['before', 'after']);
});

test('a write that fails halfway is undone and rejects alone; the others of its batch commit', async () => {
  const db = new DatabaseSync(join(scratch(), 'savepoints.db'));
  closing.push(() => db.close());
  db.exec('CREATE TABLE t (name TEXT)');
  const batches = groupCommit(
    () => db,
    (error) => error,
  );
  const insert = (name: string) => db.prepare('INSERT INTO t (name) VALUES (?)').run(name);
  const results = await Promise.allSettled([
    batches.write(() => insert('first')),
    batches.write(() => {
      insert('half');
      throw new RangeError('failed after its first statement');
    }),
    batches.write(() => insert('last')),
  ]);
  expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(
    db
      .prepare('SELECT name FROM t ORDER BY rowid')
      .all()
      .map((row) => row['name']),
  ).toEqual(['first', 'last']);
  expect(db.isTransaction).toBe(false);
});

test('a claim in the same batch after an entry was recorded for others takes it, though a claim before found nothing', async () => {
  const journal = journalAt(join(scratch(), 'claims.db'));
  const [before, id, after, last] = await Promise.all([
    journal.doClaim('worker-1', 60_000),
    journal.doRecord(record('for workers'), 'recorder', 0),
    journal.doClaim('worker-2', 60_000),
    journal.doClaim('worker-3', 60_000),
  ]);
  expect(before).toBeUndefined();
  expect(after).toMatchObject({ id, owner: 'worker-2', attempts: 2 });
  expect(last).toBeUndefined();
});
