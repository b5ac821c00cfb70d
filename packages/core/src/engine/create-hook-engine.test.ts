import { afterEach, describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { EngineClosedError } from '../errors/engine-closed-error.ts';
import { InvalidContextError } from '../errors/invalid-context-error.ts';
import { PluginError } from '../errors/plugin-error.ts';
import { UnknownEventError } from '../errors/unknown-event-error.ts';
import { defineSandboxProvider, type SandboxSession } from '../plugins/sandbox-provider.ts';
import { scriptedRunner } from '../testing/scripted-runner.ts';
import { createHookEngine } from './create-hook-engine.ts';
import type { EmitOutcome, PendingEmitOutcome } from './emit-outcome.ts';
import { scriptedEngines, scriptedHook } from '../../test-support/scripted-engines.ts';

const context = { run_id: 'run-1', workflow_name: 'ci', node_id: 'deploy', handler_type: 'agent' };
const { engineFor, closeAfterTest } = scriptedEngines();
// Registered after scriptedEngines: after-hooks run in reverse, so the clock is real again before engines close.
afterEach(() => {
  vi.useRealTimers();
});

const hook = (name: string, body: string, event = 'stage_start') => scriptedHook(name, body, event);

describe('emit: selection, order and merge', () => {
  test('blocking hooks run in order; the first block stops the rest, blocking or not, which are skipped', async () => {
    const { engine, runner } = engineFor(
      hook('a', 'decision = "skip"\nreason = "a skips"') +
        hook('b', 'decision = "block"\nreason = "b blocks"') +
        hook('c', 'decision = "block"\nreason = "never"') +
        hook('d', 'blocking = false'),
    );
    const outcome = await engine.emit('stage_start', context);
    expect(runner.calls.map((call) => call.hook)).toEqual(['a', 'b']);
    expect(outcome).toMatchObject({ event: 'stage_start', decision: 'block', reason: 'b blocks', decided_by: 'b' });
    expect(outcome.hooks.map((report) => [report.name, report.status])).toEqual([
      ['a', 'ok'],
      ['b', 'ok'],
      ['c', 'skipped'],
      ['d', 'skipped'],
    ]);
    expect(outcome.hooks[2]).toMatchObject({ skipped_because: '"b" blocked the event' });
  });

  test('the earliest skip or override wins when nothing blocks, and override carries edge_to', async () => {
    const { engine } = engineFor(
      hook('route', 'decision = "override"\nedge_to = "fix"\nreason = "tests red"') +
        hook('later', 'decision = "skip"'),
      {},
    );
    const outcome = await engine.emit('stage_start', context);
    // stage_start does not honour override: it is recorded with a warning and counts as proceed.
    expect(outcome.decision).toBe('skip');
    expect(outcome.decided_by).toBe('later');
    expect(outcome.hooks[0]?.decision).toEqual({ decision: 'override', edge_to: 'fix', reason: 'tests red' });
    expect(outcome.warnings).toEqual([
      'hook "route" decided "override", which "stage_start" does not honour (it honours skip, block); counted as proceed',
    ]);

    const edge = engineFor(
      hook('route', 'decision = "override"\nedge_to = "fix"', 'edge_selected') +
        hook('skipper', 'decision = "skip"', 'edge_selected'),
    ).engine;
    const redirected = await edge.emit('edge_selected', { ...context, edge_from: 'test', edge_to: 'deploy' });
    expect(redirected).toMatchObject({ decision: 'override', edge_to: 'fix', decided_by: 'route' });
  });

  test('matchers try node_id, handler_type, edge_from, edge_to and tool_name; no field means not selected', async () => {
    const { engine, runner } = engineFor(
      hook('by-node', 'matcher = "^deploy$"') +
        hook('by-handler', 'matcher = "^agent$"') +
        hook('by-tool', 'matcher = "Bash"') +
        hook('none', 'matcher = "zzz"') +
        hook('all', ''),
    );
    await engine.emit('stage_start', context);
    expect(runner.calls.map((call) => call.hook)).toEqual(['by-node', 'by-handler', 'all']);
    runner.calls.length = 0;
    await engine.emit('stage_start', { run_id: 'r', workflow_name: 'w', tool_name: 'Bash' });
    expect(runner.calls.map((call) => call.hook)).toEqual(['by-tool', 'all']);
    runner.calls.length = 0;
    await engine.emit('stage_start', { run_id: 'r', workflow_name: 'w' });
    expect(runner.calls.map((call) => call.hook)).toEqual(['all']);
  });

  test('disabled hooks and hooks of other events are not selected, and explain says why', async () => {
    const runner = scriptedRunner();
    const config = loadConfig(
      [
        {
          text:
            hook('on', '') + hook('off', '') + hook('other', '', 'run_start') + hook('picky', 'matcher = "^build$"'),
          source: 'a.toml',
        },
        { text: '[[hooks]]\nname = "off"\nenabled = false\n', source: 'b.toml' },
      ],
      { runners: [runner] },
    );
    const engine = createHookEngine({ config, runners: [runner] });
    closeAfterTest(engine);
    const outcome = await engine.emit('stage_start', context);
    expect(outcome.hooks.map((report) => report.name)).toEqual(['on']);
    expect(
      engine
        .explain('stage_start', context)
        .map(({ hook: explained, selected, reason }) => [explained.name, selected, reason]),
    ).toEqual([
      ['on', true, 'no matcher: runs on every "stage_start"'],
      ['off', false, 'disabled (enabled = false) in b.toml:1'],
      ['other', false, 'listens to "run_start", not "stage_start"'],
      ['picky', false, 'matcher /^build$/ matched none of node_id="deploy", handler_type="agent"'],
    ]);
  });

  test('the runner sees the normalized context: event set, null fields omitted', async () => {
    const { engine, runner } = engineFor(hook('a', ''));
    await engine.emit('stage_start', {
      ...context,
      status: null,
      edge_to: undefined,
      attempt: 1,
      extra: { keep: null },
    });
    expect(runner.calls[0]?.context).toEqual({
      event: 'stage_start',
      run_id: 'run-1',
      workflow_name: 'ci',
      node_id: 'deploy',
      handler_type: 'agent',
      attempt: 1,
      extra: { keep: null },
    });
  });

  test('the outcome serialises to exactly the documented outcome shape, without settled', async () => {
    const { engine } = engineFor(hook('pre-check', 'decision = "block"\nreason = "policy violation"'));
    const outcome = await engine.emit('stage_start', context);
    const json = JSON.parse(JSON.stringify(outcome));
    expect(Object.keys(json)).toEqual(['event', 'decision', 'reason', 'decided_by', 'hooks', 'warnings']);
    expect(Object.keys(json.hooks[0])).toEqual([
      'name',
      'type',
      'blocking',
      'status',
      'decision',
      'duration_ms',
      'scripted',
    ]);
    expect(typeof json.hooks[0].duration_ms).toBe('number');
    expect(outcome.settled).toBeInstanceOf(Promise);
  });
});

describe('emit: failures are reports, never exceptions', () => {
  test('a runner that throws is failed with on_error applied, and the engine keeps working', async () => {
    const { engine } = engineFor(
      hook('boom', 'throw = "kaboom"') +
        hook('open', 'throw = "kaboom"\non_error = "proceed"\nblocking = true', 'run_start'),
    );
    const outcome = await engine.emit('stage_start', context);
    expect(outcome.hooks[0]).toMatchObject({
      status: 'failed',
      error: 'runner "@hookline/core/testing" threw: kaboom',
      decision: { decision: 'block', reason: 'runner "@hookline/core/testing" threw: kaboom' },
    });
    expect(outcome.decision).toBe('block');
    const open = await engine.emit('run_start', context);
    expect(open.decision).toBe('proceed');
    expect(open.hooks[0]?.status).toBe('failed');
    expect(open.warnings).toEqual([
      'hook "open" failed: runner "@hookline/core/testing" threw: kaboom — on_error made it "proceed"',
    ]);
  });

  test('a failed result and an invalid result are both failed', async () => {
    const { engine } = engineFor(
      hook('fails', 'fail = "server said 500"\non_error = "proceed"') +
        hook('invalid', 'invalid = true\non_error = "proceed"'),
    );
    const outcome = await engine.emit('stage_start', context);
    expect(outcome.hooks[0]).toMatchObject({
      status: 'failed',
      error: 'server said 500',
      decision: { decision: 'proceed', reason: 'server said 500' },
    });
    expect(outcome.hooks[1]).toMatchObject({ status: 'failed' });
    expect(String(outcome.hooks[1]?.error)).toContain('returned an invalid result');
  });

  test('a runner that never resolves is timed_out at its deadline', async () => {
    const { engine } = engineFor(hook('stuck', 'hang = true\ntimeout_ms = 150'), { closeGraceMs: 50 });
    const started = performance.now();
    const outcome = await engine.emit('stage_start', context);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(outcome.hooks[0]).toMatchObject({
      status: 'timed_out',
      error: 'hook timed out after 150 ms',
      decision: { decision: 'block', reason: 'hook timed out after 150 ms' },
    });
    expect(outcome).toMatchObject({ decision: 'block', decided_by: 'stuck' });
  });

  test('a result that arrives after the deadline is ignored', async () => {
    const { engine, runner } = engineFor(
      hook('late', 'delay_ms = 300\nignore_abort = true\ndecision = "skip"\ntimeout_ms = 100\non_error = "proceed"'),
    );
    const outcome = await engine.emit('stage_start', context);
    expect(outcome.hooks[0]?.status).toBe('timed_out');
    expect(outcome.decision).toBe('proceed');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(runner.calls).toHaveLength(1);
    expect(outcome.hooks[0]?.status).toBe('timed_out');
  });

  test('misuse rejects with a clear error: unknown event, non-object context, missing required fields', async () => {
    const { engine } = engineFor(hook('a', ''));
    await expect(engine.emit('stage_strat', context)).rejects.toThrow(UnknownEventError);
    await expect(engine.emit('stage_strat', context)).rejects.toThrow(
      'Unknown event "stage_strat" for preset "arc". Did you mean "stage_start"?',
    );
    await expect(engine.emit('stage_start', [])).rejects.toThrow('must be a JSON object, got an array');
    await expect(engine.emit('stage_start', null as unknown as object)).rejects.toThrow(InvalidContextError);
    await expect(engine.emit('stage_start', 'x' as unknown as object)).rejects.toThrow('got string');
    await expect(engine.emit('stage_start', { run_id: 'r' })).rejects.toThrow('lacks "workflow_name"');
    await expect(engine.emit('stage_start', { ...context, event: 'run_start' })).rejects.toThrow(
      'drop the field or make them agree',
    );
  });

  test('a 1 MiB context is passed through whole', async () => {
    const { engine, runner } = engineFor(hook('big', ''));
    const payload = 'x'.repeat(1024 * 1024);
    const outcome = await engine.emit('stage_start', { ...context, payload });
    expect(outcome.hooks[0]?.status).toBe('ok');
    expect(runner.calls[0]?.context['payload']).toBe(payload);
  });
});

describe('non-blocking phase', () => {
  test('emit returns after the blocking phase; settled brings the non-blocking reports', async () => {
    // On a fake clock: emit must resolve while "notify" still sleeps its 200 ms, however slow the machine.
    vi.useFakeTimers();
    const { engine } = engineFor(
      hook('gate', 'decision = "skip"') +
        hook('notify', 'blocking = false\ndelay_ms = 200\ndecision = "block"') +
        hook('crash', 'blocking = false\nthrow = "x"'),
    );
    let returned: PendingEmitOutcome | undefined;
    const emitted = engine.emit('stage_start', context).then((outcome) => (returned = outcome));
    await vi.advanceTimersByTimeAsync(199);
    expect(returned?.hooks.map((report) => report.status)).toEqual(['ok', 'pending', 'pending']);
    const outcome = await emitted;
    let settledReports: EmitOutcome | undefined;
    void outcome.settled.then((settled) => (settledReports = settled));
    await vi.advanceTimersByTimeAsync(0);
    expect(settledReports).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    const settled = await outcome.settled;
    expect(settled.hooks.map((report) => report.status)).toEqual(['ok', 'ok', 'failed']);
    // Non-blocking decisions are recorded and ignored; a non-blocking block and a failure are warned about.
    expect(settled.decision).toBe('skip');
    expect(settled.warnings).toEqual([
      'hook "notify" decided "block" — it is non-blocking, so the event was not held back',
      'hook "crash" failed: runner "@hookline/core/testing" threw: x — on_error made it "block"',
    ]);
  });

  test('concurrency is bounded across emits', async () => {
    const hooks = Array.from({ length: 30 }, (_, index) =>
      hook(`n${index}`, 'blocking = false\ndelay_ms = 20', 'stage_complete'),
    ).join('');
    const { engine, runner } = engineFor(hooks, { concurrency: 4 });
    const outcomes = await Promise.all([
      engine.emit('stage_complete', context),
      engine.emit('stage_complete', context),
    ]);
    const settled = await Promise.all(outcomes.map((outcome) => outcome.settled));
    expect(settled.flatMap((outcome) => outcome.hooks).filter((report) => report.status === 'ok')).toHaveLength(60);
    expect(runner.maxActive).toBe(4);
  });
});

describe('sandbox sessions', () => {
  function recordingProvider(name = 'local') {
    const opened: string[] = [];
    const disposed: string[] = [];
    const provider = defineSandboxProvider({
      name,
      async doOpen(runId) {
        opened.push(runId);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const session: SandboxSession = {
          runId,
          provider: name,
          exec: async () => {
            throw new Error('not used');
          },
          writeFile: async () => '/tmp/x',
          removeFile: async () => {},
          dispose: async () => {
            disposed.push(runId);
          },
        };
        return session;
      },
    });
    return { provider, opened, disposed };
  }

  test('one session per run_id, shared by concurrent first uses, disposed by endRun and close', async () => {
    const runner = scriptedRunner({ usesSandbox: true });
    const { provider, opened, disposed } = recordingProvider();
    const toml =
      Array.from({ length: 5 }, (_, index) => hook(`s${index}`, 'blocking = false')).join('') +
      hook('host', 'sandbox = false');
    const { engine } = engineFor(toml, { runner, sandbox: provider });
    const first = await Promise.all([engine.emit('stage_start', context), engine.emit('stage_start', context)]);
    await Promise.all(first.map((outcome) => outcome.settled));
    await (
      await engine.emit('stage_start', { ...context, run_id: 'run-2' })
    ).settled;
    expect(opened).toEqual(['run-1', 'run-2']);
    expect(runner.calls.filter((call) => call.hook === 'host').every((call) => call.sandboxRunId === undefined)).toBe(
      true,
    );
    expect(
      runner.calls
        .filter((call) => call.hook !== 'host')
        .every((call) => call.sandboxRunId === String(call.context['run_id'])),
    ).toBe(true);
    await engine.endRun('run-1');
    expect(disposed).toEqual(['run-1']);
    await engine.close();
    expect(disposed).toEqual(['run-1', 'run-2']);
  });

  test('a sandbox that cannot open fails the hook with on_error, and the next hook tries again', async () => {
    const runner = scriptedRunner({ usesSandbox: true });
    let attempts = 0;
    const provider = defineSandboxProvider({
      name: 'local',
      async doOpen() {
        attempts++;
        throw new Error('no space left');
      },
    });
    const { engine } = engineFor(hook('s', ''), { runner, sandbox: provider });
    const outcome = await engine.emit('stage_start', context);
    expect(outcome.hooks[0]).toMatchObject({
      status: 'failed',
      error: "the run's sandbox is not available: no space left",
      decision: { decision: 'block' },
    });
    await engine.emit('stage_start', context);
    expect(attempts).toBe(2);
  });

  test('sandboxed hooks without a provider, or with another provider than configured, are refused at creation', () => {
    const runner = scriptedRunner({ usesSandbox: true });
    const config = loadConfig([{ text: hook('s', ''), source: 't.toml' }], { runners: [runner] });
    expect(() => createHookEngine({ config, runners: [runner] })).toThrow(PluginError);
    expect(() => createHookEngine({ config, runners: [runner] })).toThrow(
      'pass localSandbox() from @hookline/runner-command',
    );
    expect(() =>
      createHookEngine({ config, runners: [runner], sandbox: recordingProvider('docker').provider }),
    ).toThrow('selects sandbox provider "local", but the engine was given "docker"');
    expect(() => createHookEngine({ config, runners: [] })).toThrow('no runner for it was passed');
  });
});

describe('sandbox events', () => {
  function sessionsProvider() {
    const events: string[] = [];
    const provider = defineSandboxProvider({
      name: 'local',
      async doOpen(runId) {
        events.push(`open ${runId}`);
        return {
          runId,
          provider: 'local',
          details: { container: `c-${runId}` },
          exec: async () => Promise.reject(new Error('unused')),
          writeFile: async () => '',
          removeFile: async () => {},
          dispose: async () => {
            events.push(`dispose ${runId}`);
          },
        };
      },
    });
    return { provider, events };
  }

  test('sandbox_ready runs once per run, in the new session, before the first sandboxed hook; sandbox_cleanup before dispose', async () => {
    const runner = scriptedRunner({ usesSandbox: true });
    const { provider, events } = sessionsProvider();
    const internal: string[] = [];
    const { engine } = engineFor(
      hook('ready', '', 'sandbox_ready') +
        hook('work', '') +
        hook('work-2', 'decision = "skip"') +
        hook('bye', '', 'sandbox_cleanup'),
      {
        runner,
        sandbox: provider,
        onInternalEmit: (outcome) =>
          internal.push(`${outcome.event}:${outcome.hooks.map((report) => report.status).join(',')}`),
      },
    );
    await engine.emit('stage_start', { ...context, cwd: '/work' });
    await engine.emit('stage_start', context);
    expect(runner.calls.map((call) => call.hook)).toEqual(['ready', 'work', 'work-2', 'work', 'work-2']);
    expect(runner.calls[0]?.context).toEqual({
      event: 'sandbox_ready',
      run_id: 'run-1',
      workflow_name: 'ci',
      cwd: '/work',
      sandbox: { provider: 'local', container: 'c-run-1' },
    });
    expect(runner.calls.every((call) => call.sandboxRunId === 'run-1')).toBe(true);
    await engine.endRun('run-1');
    expect(runner.calls.at(-1)).toMatchObject({
      hook: 'bye',
      sandboxRunId: 'run-1',
      context: { event: 'sandbox_cleanup' },
    });
    expect(events).toEqual(['open run-1', 'dispose run-1']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(internal).toEqual(['sandbox_ready:ok', 'sandbox_cleanup:ok']);
  });

  test('a blocking sandbox_ready hook that blocks refuses the sandbox to the run, until the run ends', async () => {
    const runner = scriptedRunner({ usesSandbox: true });
    const { provider, events } = sessionsProvider();
    const { engine } = engineFor(
      hook('image-policy', 'blocking = true\ndecision = "block"\nreason = "image not allowed"', 'sandbox_ready') +
        hook('work', '') +
        hook('on-host', 'sandbox = false') +
        hook('bye', '', 'sandbox_cleanup'),
      { runner, sandbox: provider },
    );
    const outcome = await engine.emit('stage_start', context);
    const refusal =
      'the run\'s sandbox is not available: sandbox_ready hook "image-policy" blocked the run\'s sandbox: image not allowed';
    expect(outcome.hooks[0]).toMatchObject({
      name: 'work',
      status: 'failed',
      error: refusal,
      decision: { decision: 'block' },
    });
    expect(outcome).toMatchObject({ decision: 'block', decided_by: 'work', reason: refusal });
    expect(events).toEqual(['open run-1', 'dispose run-1']);
    expect(runner.calls.map((call) => call.hook)).toEqual(['image-policy', 'bye']);

    const again = await engine.emit('stage_start', context);
    expect(again.hooks[0]?.error).toBe(refusal);
    expect(events).toEqual(['open run-1', 'dispose run-1']);

    await engine.endRun('run-1');
    await engine.emit('stage_start', context);
    expect(events).toEqual(['open run-1', 'dispose run-1', 'open run-1', 'dispose run-1']);
  });

  test('close runs sandbox_cleanup for every open session, even while stopping the hooks of host emits', async () => {
    const runner = scriptedRunner({ usesSandbox: true });
    const { provider, events } = sessionsProvider();
    const { engine } = engineFor(
      hook('slow', 'delay_ms = 60000\ntimeout_ms = 120000') + hook('bye', '', 'sandbox_cleanup'),
      { runner, sandbox: provider },
    );
    const pending = engine.emit('stage_start', context);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await engine.close();
    expect((await pending).hooks[0]).toMatchObject({ status: 'failed', error: 'the engine closed while the hook ran' });
    expect(runner.calls.map((call) => call.hook)).toEqual(['slow', 'bye']);
    expect(events).toEqual(['open run-1', 'dispose run-1']);
  });
});

describe('close', () => {
  test('close aborts hooks in flight, disposes, and later emits are refused', async () => {
    const { engine } = engineFor(hook('slow', 'delay_ms = 60000\ntimeout_ms = 120000'));
    const pending = engine.emit('stage_start', context);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await engine.close();
    const outcome = await pending;
    expect(outcome.hooks[0]).toMatchObject({ status: 'failed', error: 'the engine closed while the hook ran' });
    await expect(engine.emit('stage_start', context)).rejects.toThrow(EngineClosedError);
    await engine.close();
  });

  test('a runner that ignores its abort cannot hold close() past the grace', async () => {
    // On a fake clock: close() waits out the 100 ms grace, once for host hooks and once for the engine's
    // own, and then resolves although the hook never settles.
    vi.useFakeTimers();
    const { engine } = engineFor(hook('stubborn', 'hang = true\ntimeout_ms = 60000'), { closeGraceMs: 100 });
    void engine.emit('stage_start', context);
    await vi.advanceTimersByTimeAsync(20);
    let closed = false;
    const closing = engine.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(101);
    expect(closed).toBe(true);
    await closing;
  });
});

describe('scale', () => {
  test('10 000 hooks in one config load and emit', async () => {
    const toml = Array.from({ length: 10_000 }, (_, index) =>
      hook(`h${index}`, index % 2 === 0 ? 'blocking = false' : '', index % 10 === 0 ? 'stage_start' : 'stage_complete'),
    ).join('');
    const { engine, runner } = engineFor(toml, { concurrency: 64 });
    const outcome = await engine.emit('stage_start', context);
    const settled = await outcome.settled;
    expect(settled.hooks).toHaveLength(1_000);
    expect(settled.hooks.every((report) => report.status === 'ok')).toBe(true);
    expect(runner.calls).toHaveLength(1_000);
  }, 30_000);

  test('1 000 concurrent emits across 50 run_ids each get their own correct outcome', async () => {
    const runner = scriptedRunner({ usesSandbox: true });
    const opened: string[] = [];
    const provider = defineSandboxProvider({
      name: 'local',
      async doOpen(runId) {
        opened.push(runId);
        return {
          runId,
          provider: 'local',
          exec: async () => Promise.reject(new Error('unused')),
          writeFile: async () => '',
          removeFile: async () => {},
          dispose: async () => {},
        };
      },
    });
    const { engine } = engineFor(
      hook('gate', 'matcher = "^deploy-7$"\ndecision = "block"\nreason = "frozen"') +
        hook('audit', 'blocking = false\ndelay_ms = 1'),
      { runner, sandbox: provider },
    );
    const emits = Array.from({ length: 1_000 }, (_, index) =>
      engine.emit('stage_start', {
        run_id: `run-${index % 50}`,
        workflow_name: 'load',
        node_id: `deploy-${index % 10}`,
      }),
    );
    const outcomes = await Promise.all(emits);
    const settled = await Promise.all(outcomes.map((outcome) => outcome.settled));
    for (const [index, outcome] of settled.entries()) {
      if (index % 10 === 7) {
        expect(outcome).toMatchObject({ decision: 'block', reason: 'frozen', decided_by: 'gate' });
        expect(outcome.hooks.map((report) => report.status)).toEqual(['ok', 'skipped']);
      } else {
        expect(outcome.decision).toBe('proceed');
        expect(outcome.hooks.map((report) => report.status)).toEqual(['ok']);
      }
    }
    expect(new Set(opened).size).toBe(50);
    expect(opened).toHaveLength(50);
    for (const call of runner.calls) expect(call.sandboxRunId).toBe(call.context['run_id']);
  });
});
