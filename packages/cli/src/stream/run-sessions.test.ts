import { expect, test } from 'vitest';
import { createRunSessions } from './run-sessions.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

test('a run\'s session ends after run_complete, once every emit of the run has settled', async () => {
  const ended: string[] = [];
  const sessions = createRunSessions(async (runId) => void ended.push(runId));
  const slow = deferred();
  sessions.add('r1', 'stage_start', slow.promise);
  sessions.add('r1', 'run_complete', Promise.resolve());
  sessions.add('r2', 'stage_start', Promise.resolve());
  await new Promise((resolve) => setTimeout(resolve, 10));
  // r1 is finished but a hook of it still runs; r2 never finished.
  expect(ended).toEqual([]);
  slow.resolve();
  await new Promise((resolve) => setTimeout(resolve, 10));
  await sessions.drain();
  expect(ended).toEqual(['r1']);
});

test('an event after the run ended starts over; run_failed ends a run too', async () => {
  const ended: string[] = [];
  const sessions = createRunSessions(async (runId) => void ended.push(runId));
  sessions.add('r1', 'run_failed', Promise.resolve());
  await new Promise((resolve) => setTimeout(resolve, 10));
  sessions.add('r1', 'sandbox_cleanup', Promise.resolve());
  await new Promise((resolve) => setTimeout(resolve, 10));
  await sessions.drain();
  expect(ended).toEqual(['r1']);
});
