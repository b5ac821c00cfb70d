import assert from 'node:assert/strict';
import { stringify } from 'smol-toml';
import { createHooks } from 'hookable';
import tapable from 'tapable';
import { createHookEngine, loadConfig, type HookEngine } from '../src/index.ts';
import { arcPreset } from '../src/presets/arc/arc-preset.ts';
import { scriptedRunner, type ScriptedRunner } from '../src/testing/index.ts';

// tapable is CommonJS; its named exports are not statically detectable by Node's ESM loader.
const { AsyncSeriesHook } = tapable;

/** One way of dispatching an event, prepared and checked once, then timed call by call. */
export interface Contender {
  readonly library: 'hookline' | 'hookable' | 'tapable';
  /** Dispatches once; the caller awaits the result, which covers everything the dispatch started. */
  readonly call: () => unknown;
  /**
   * Runs after each timed batch of `calls` calls, outside the timed window: checks that every call
   * ran exactly the hooks the scenario expects, then resets the counts (so nothing grows unbounded).
   */
  readonly checkBatch: (calls: number) => void;
  readonly close: () => Promise<void>;
}

/** The three contenders of one scenario, all verified to take the path the scenario is about. */
export interface Scenario {
  readonly title: string;
  readonly contenders: readonly Contender[];
}

/** A valid context under the arc preset, which requires `run_id` and `workflow_name`. */
const context = { run_id: 'bench-run', workflow_name: 'bench' };
type BenchContext = typeof context;
/** A peer's hook function; both peers type its result `void` because they discard it. */
type PeerHook = (context: BenchContext) => Promise<void>;
const HOOK_COUNT = 1_000;
/** The emitted event of the no-hook scenario; every configured hook listens to one of the others. */
const QUIET_EVENT = 'checkpoint_saved';
const otherEvents = arcPreset.events.map((event) => event.name).filter((name) => name !== QUIET_EVENT);
const proceed = { decision: 'proceed' } as const;

/** Scenario (a): an event with no hooks while 1 000 hooks listen to the preset's other events. */
export async function noHookAmongMany(): Promise<Scenario> {
  const runner = scriptedRunner();
  const hooks = Array.from({ length: HOOK_COUNT }, (_, index) => ({
    name: `hook-${index}`,
    event: otherEvents[index % otherEvents.length]!,
    type: 'scripted',
  }));
  const engine = engineFor(runner, hooks);
  // With no hook selected nothing runs in the background: `settled` is the same, already resolved
  // outcome (checked below), so a host awaits `emit` alone, as it awaits `callHook`.
  const emitQuiet = (): Promise<unknown> => engine.emit(QUIET_EVENT, context);
  const outcome = await engine.emit(QUIET_EVENT, context);
  const settled = await outcome.settled;
  assert.equal(settled, outcome, 'a quiet emit has nothing left to settle');
  assert.equal(engine.config.hooks.length, HOOK_COUNT);
  assert.equal(outcome.decision, 'proceed');
  assert.deepEqual(settled.hooks, []);
  assert.deepEqual(settled.warnings, []);
  assert.equal(runner.calls.length, 0);

  const hookable = createHooks<Record<string, PeerHook>>();
  let hookableRuns = 0;
  for (const hook of hooks) {
    hookable.hook(
      hook.event,
      answering(() => {
        hookableRuns++;
      }),
    );
  }
  await hookable.callHook(QUIET_EVENT, context);
  assert.equal(hookableRuns, 0);
  await hookable.callHook(otherEvents[0]!, context);
  assert.equal(hookableRuns, Math.ceil(HOOK_COUNT / otherEvents.length), 'hookable: the other events do have hooks');

  // Keyed like an engine would key them: one hook per event name, the taps spread as above.
  const tapableHooks = new Map(
    arcPreset.events.map((event) => [event.name, new AsyncSeriesHook<[BenchContext]>(['context'])]),
  );
  let tapableRuns = 0;
  for (const hook of hooks) {
    tapableHooks.get(hook.event)!.tapPromise(
      hook.name,
      answering(() => {
        tapableRuns++;
      }),
    );
  }
  const tapableQuiet = (): Promise<unknown> => tapableHooks.get(QUIET_EVENT)!.promise(context);
  assert.equal(tapableHooks.get(QUIET_EVENT)!.taps.length, 0);
  await tapableQuiet();
  assert.equal(tapableRuns, 0);
  hookableRuns = 0;

  return {
    title: `(a) no hook for the event, ${HOOK_COUNT.toLocaleString('en-US')} on others`,
    contenders: [
      {
        library: 'hookline',
        call: emitQuiet,
        checkBatch: () => assert.equal(runner.calls.length, 0),
        close: () => engine.close(),
      },
      {
        library: 'hookable',
        call: () => hookable.callHook(QUIET_EVENT, context),
        checkBatch: () => assert.equal(hookableRuns, 0),
        close: async () => hookable.removeAllHooks(),
      },
      {
        library: 'tapable',
        call: tapableQuiet,
        checkBatch: () => assert.equal(tapableRuns, 0),
        close: async () => undefined,
      },
    ],
  };
}

/** Scenario (b): one in-memory hook that answers `proceed`. */
export async function oneProceedingHook(): Promise<Scenario> {
  const runner = scriptedRunner();
  const engine = engineFor(runner, [{ name: 'gate', event: 'stage_start', type: 'scripted' }]);
  const emitOne = async (): Promise<void> => {
    const outcome = await engine.emit('stage_start', context);
    await outcome.settled;
  };
  const outcome = await engine.emit('stage_start', context);
  const settled = await outcome.settled;
  assert.equal(outcome.decision, 'proceed');
  assert.equal(settled.hooks.length, 1);
  assert.equal(settled.hooks[0]!.status, 'ok', `the hook must run, not fail: ${JSON.stringify(settled.hooks[0])}`);
  assert.deepEqual(settled.hooks[0]!.decision, proceed);
  assert.deepEqual(settled.warnings, []);
  assert.equal(runner.calls.length, 1);
  runner.calls.length = 0;

  const hookable = createHooks<{ stage_start: PeerHook }>();
  let hookableRuns = 0;
  hookable.hook(
    'stage_start',
    answering(() => {
      hookableRuns++;
    }),
  );
  await hookable.callHook('stage_start', context);
  assert.equal(hookableRuns, 1);

  const tapableHook = new AsyncSeriesHook<[BenchContext]>(['context']);
  let tapableRuns = 0;
  tapableHook.tapPromise(
    'gate',
    answering(() => {
      tapableRuns++;
    }),
  );
  await tapableHook.promise(context);
  assert.equal(tapableRuns, 1);
  hookableRuns = 0;
  tapableRuns = 0;

  return {
    title: '(b) one hook that proceeds',
    contenders: [
      {
        library: 'hookline',
        call: emitOne,
        checkBatch: (calls) => {
          assert.equal(runner.calls.length, calls);
          runner.calls.length = 0;
        },
        close: () => engine.close(),
      },
      {
        library: 'hookable',
        call: () => hookable.callHook('stage_start', context),
        checkBatch: (calls) => {
          assert.equal(hookableRuns, calls);
          hookableRuns = 0;
        },
        close: async () => hookable.removeAllHooks(),
      },
      {
        library: 'tapable',
        call: () => tapableHook.promise(context),
        checkBatch: (calls) => {
          assert.equal(tapableRuns, calls);
          tapableRuns = 0;
        },
        close: async () => undefined,
      },
    ],
  };
}

/** A peer hook that counts its runs and, like a Hookline runner, resolves to a decision object. */
function answering(count: () => void): PeerHook {
  return async () => {
    count();
    // Typed `void` for the peers, which discard it; it still resolves to the decision, as a runner's does.
    return proceed as never;
  };
}

function engineFor(runner: ScriptedRunner, hooks: ReadonlyArray<Record<string, unknown>>): HookEngine {
  const config = loadConfig([{ text: stringify({ hooks }), source: 'bench.toml' }], { runners: [runner] });
  return createHookEngine({ config, runners: [runner] });
}
