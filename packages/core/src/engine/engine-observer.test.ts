import { describe, expect, test } from 'vitest';
import { scriptedEngines, scriptedHook } from '../../test-support/scripted-engines.ts';
import { loadConfig } from '../config/load-config.ts';
import { createHookEngine } from './create-hook-engine.ts';
import { recordingObserver, throwingObserver, traceContextRunner } from '../../test-support/recording-observer.ts';
import { memoryJournal } from '../testing/memory-journal.ts';

const { engineFor } = scriptedEngines();

const context = { run_id: 'r1', workflow_name: 'wf' };

describe('the engine observer', () => {
  test('sees every emit, each hook run, and the end of the emit after its non-blocking hooks, before settled resolves', async () => {
    const { observer, seen } = recordingObserver();
    const { engine } = engineFor(
      scriptedHook('check', '', 'stage_start') +
        scriptedHook('later', 'blocking = false\ndelay_ms = 30', 'stage_start') +
        scriptedHook('late-failure', 'blocking = false\nfail = "down"', 'stage_start'),
      { observer },
    );
    const outcome = await engine.emit('stage_start', context);
    await outcome.settled;
    expect(seen).toEqual([
      'emit stage_start arc session=r1',
      'hook check',
      'hook check ok',
      'hook later',
      'hook late-failure',
      'hook late-failure failed',
      'hook later ok',
      'emit stage_start proceed (3 hooks)',
    ]);
    await engine.emit('run_complete', context);
    expect(seen.slice(-2)).toEqual(['emit run_complete arc session=r1', 'emit run_complete proceed (0 hooks)']);
  });

  test("hands the observation's trace context to the runner, and nothing without an observer", async () => {
    const { runner: peek, received } = traceContextRunner();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const toml = '[[hooks]]\nevent = "run_start"\ntype = "peek"\n';
    const config = loadConfig([{ text: toml, source: 'test.toml' }], { runners: [peek] });
    const traced = createHookEngine({ config, runners: [peek], observer: recordingObserver({ traceparent }).observer });
    const plain = createHookEngine({ config, runners: [peek] });
    await traced.emit('run_start', context);
    await plain.emit('run_start', context);
    await Promise.all([traced.close(), plain.close()]);
    expect(received).toEqual([{ traceparent }, undefined]);
  });

  test('an observer that throws changes nothing', async () => {
    const { engine } = engineFor(scriptedHook('gate', 'decision = "block"\nreason = "no"', 'stage_start'), {
      observer: throwingObserver,
    });
    const outcome = await engine.emit('stage_start', context);
    expect(outcome).toMatchObject({ decision: 'block', reason: 'no', decided_by: 'gate' });
    const { engine: other } = engineFor(scriptedHook('gate', '', 'stage_start'), {
      observer: {
        emitStarted: () => {
          throw new Error('observer bug');
        },
      },
    });
    expect(await other.emit('stage_start', context)).toMatchObject({ decision: 'proceed' });
  });

  test('a resumed journal entry is observed as a resumed emit', async () => {
    const journal = memoryJournal();
    const durableHook = scriptedHook('ship-it', 'blocking = false\ndurable = true\ndelay_ms = 10000', 'run_complete');
    // A first engine journals the emit and closes before its hook ends, releasing the entry.
    const { engine: first } = engineFor(durableHook, { journal });
    await first.emit('run_complete', context);
    await first.close();
    const { observer, seen } = recordingObserver();
    const { engine } = engineFor(scriptedHook('ship-it', 'blocking = false\ndurable = true', 'run_complete'), {
      journal,
      observer,
    });
    const report = await engine.resume();
    expect(report.ran).toHaveLength(1);
    expect(seen).toEqual([
      'emit run_complete arc session=r1 resumed',
      'hook ship-it',
      'hook ship-it ok',
      'emit run_complete proceed (1 hooks)',
    ]);
  });
});
