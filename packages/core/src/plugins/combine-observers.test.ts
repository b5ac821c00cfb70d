import { expect, test } from 'vitest';
import { recordingObserver, throwingObserver, traceContextRunner } from '../../test-support/recording-observer.ts';
import { scriptedEngines, scriptedHook } from '../../test-support/scripted-engines.ts';
import { loadConfig } from '../config/load-config.ts';
import { createHookEngine } from '../engine/create-hook-engine.ts';
import { combineObservers } from './combine-observers.ts';

const { engineFor } = scriptedEngines();
const context = { run_id: 'r1', workflow_name: 'wf' };

test('every combined observer is told every emit and hook, even when one of them throws', async () => {
  const first = recordingObserver();
  const second = recordingObserver();
  const { engine } = engineFor(
    scriptedHook('gate', 'decision = "block"\nreason = "no"', 'stage_start') +
      scriptedHook('later', 'blocking = false', 'stage_start'),
    {
      observer: combineObservers(first.observer, throwingObserver, second.observer),
    },
  );
  const outcome = await engine.emit('stage_start', context);
  expect(outcome).toMatchObject({ decision: 'block', reason: 'no', decided_by: 'gate' });
  await outcome.settled;
  const expected = ['emit stage_start arc session=r1', 'hook gate', 'hook gate ok', 'emit stage_start block (2 hooks)'];
  expect(first.seen).toEqual(expected);
  expect(second.seen).toEqual(expected);
});

test('the runner gets the first trace context an observer gives', async () => {
  const { runner: peek, received } = traceContextRunner();
  const config = loadConfig([{ text: '[[hooks]]\nevent = "run_start"\ntype = "peek"\n', source: 'test.toml' }], {
    runners: [peek],
  });
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const observer = combineObservers(
    recordingObserver().observer,
    recordingObserver({ traceparent }).observer,
    recordingObserver({ traceparent: 'later' }).observer,
  );
  const engine = createHookEngine({ config, runners: [peek], observer });
  await engine.emit('run_start', context);
  await engine.close();
  expect(received).toEqual([{ traceparent }]);
});

test('absent observers are left out: none gives undefined, one is returned as it is', () => {
  const only = recordingObserver().observer;
  expect(combineObservers()).toBeUndefined();
  expect(combineObservers(undefined, undefined)).toBeUndefined();
  expect(combineObservers(undefined, only)).toBe(only);
});
