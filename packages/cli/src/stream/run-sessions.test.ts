import { agentPreset, arcPreset, sessionEndEvents, taskPreset } from '@hookline/core';
import { expect, test } from 'vitest';
import { createRunSessions } from './run-sessions.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const tick = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 10));

test("a run's session ends after run_complete, once every emit of the run has settled", async () => {
  const ended: string[] = [];
  const sessions = createRunSessions(async (key) => void ended.push(key), sessionEndEvents(arcPreset));
  const slow = deferred();
  sessions.add('r1', 'stage_start', slow.promise);
  sessions.add('r1', 'run_complete', Promise.resolve());
  sessions.add('r2', 'stage_start', Promise.resolve());
  await tick();
  // r1 is finished but a hook of it still runs; r2 never finished.
  expect(ended).toEqual([]);
  slow.resolve();
  await tick();
  await sessions.drain();
  expect(ended).toEqual(['r1']);
});

test('an event after the run ended starts over; run_failed ends a run too', async () => {
  const ended: string[] = [];
  const sessions = createRunSessions(async (key) => void ended.push(key), sessionEndEvents(arcPreset));
  sessions.add('r1', 'run_failed', Promise.resolve());
  await tick();
  sessions.add('r1', 'sandbox_cleanup', Promise.resolve());
  await tick();
  await sessions.drain();
  expect(ended).toEqual(['r1']);
});

test('agent sessions end after session_stop; task sessions only at exit', async () => {
  const ended: string[] = [];
  const agent = createRunSessions(async (key) => void ended.push(key), sessionEndEvents(agentPreset));
  agent.add('s1', 'run_complete', Promise.resolve());
  agent.add('s2', 'pre_tool_use', Promise.resolve());
  agent.add('s2', 'session_stop', Promise.resolve());
  await tick();
  await agent.drain();
  expect(ended).toEqual(['s2']);
  const task = createRunSessions(async (key) => void ended.push(key), sessionEndEvents(taskPreset));
  for (const point of ['after_merge', 'after_fail', 'after_rework', 'after_awaiting_human', 'after_proposed'])
    task.add('t-1', point, Promise.resolve());
  await tick();
  await task.drain();
  expect(ended).toEqual(['s2']);
});
