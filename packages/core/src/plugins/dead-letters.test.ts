import { expect, test } from 'vitest';
import { createJournalSeal } from './journal-seal.ts';
import { memoryJournal } from '../testing/memory-journal.ts';
import { purgeDeadLetters, retryDeadLetters } from './dead-letters.ts';
import type { JournalAttempt } from './journal.ts';

const attempt = (target: string): JournalAttempt => ({
  hook: 'notify',
  target,
  at: 1,
  outcome: 'dead',
  status: 'failed',
  httpStatus: 410,
  durationMs: 1,
  error: 'gone',
});

async function deadLetter(journal: ReturnType<typeof memoryJournal>, target: string, seal?: string): Promise<string> {
  const id = await journal.doRecord(
    {
      preset: 'arc',
      event: 'run_complete',
      context: { event: 'run_complete', run_id: target },
      hooks: ['notify'],
      ...(seal === undefined ? {} : { seal }),
    },
    'a',
    60_000,
  );
  await journal.doRecordAttempts!(id, 'a', [attempt(target)], { deadLetter: 'gone' });
  return id;
}

test('retryDeadLetters picks dead letters by id, time and endpoint (re-enabling it), and leaves those whose seal does not verify', async () => {
  const journal = memoryJournal();
  const a = await deadLetter(journal, 'https://a.test/hook');
  const b = await deadLetter(journal, 'https://b.test/hook');
  await journal.doDisableTarget!('https://a.test/hook', 'answered 410');
  expect(await retryDeadLetters(journal, { endpoint: 'https://a.test/hook' })).toEqual({
    retried: [a],
    refused: [],
    reenabled: true,
  });
  expect(await journal.disabledTargets!()).toEqual([]);
  expect(await retryDeadLetters(journal, { since: Date.now() + 60_000 })).toEqual({
    retried: [],
    refused: [],
    reenabled: false,
  });
  expect(await retryDeadLetters(journal, { ids: [b, 'nope'] })).toEqual({
    retried: [b],
    refused: [],
    reenabled: false,
  });

  const seal = createJournalSeal(new Uint8Array(32).fill(3));
  const forged = await deadLetter(journal, 'https://c.test/hook', 'v1.forged');
  expect(await retryDeadLetters(journal, { since: 0 }, seal)).toEqual({
    retried: [],
    refused: [{ id: forged, reason: 'its seal does not verify with this key' }],
    reenabled: false,
  });
});

test('purgeDeadLetters deletes dead letters older than a time and nothing else', async () => {
  const journal = memoryJournal();
  await deadLetter(journal, 'https://a.test/hook');
  const pending = await journal.doRecord(
    { preset: 'arc', event: 'run_complete', context: { event: 'run_complete' }, hooks: ['notify'] },
    'a',
    0,
  );
  expect(await purgeDeadLetters(journal, Date.now() - 60_000)).toBe(0);
  expect(await purgeDeadLetters(journal, Date.now() + 1)).toBe(1);
  expect(journal.entries.map((entry) => entry.id)).toEqual([pending]);
});
