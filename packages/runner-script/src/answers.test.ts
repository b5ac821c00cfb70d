// What a script returns or throws, through the real loader and engine, and how it is reported.
import { afterAll, describe, expect, test } from 'vitest';
import { CONTEXT, runOnce, scriptEngine, scriptHookToml } from '../test-support/script-engine.ts';
import { scriptRunner } from './script-runner.ts';

const runner = scriptRunner({ poolSize: 2 });
afterAll(() => runner.doClose?.());

describe('answers', () => {
  test('a decision object is the decision', async () => {
    const outcome = await runOnce(
      "if (context.node_id === 'deploy') return { decision: 'block', reason: 'frozen' }",
      '',
      runner,
    );
    expect(outcome.decision).toBe('block');
    expect(outcome.reason).toBe('frozen');
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'block', reason: 'frozen' } });
  });

  test('override carries edge_to, and unknown fields are ignored', async () => {
    const toml = scriptHookToml("return { decision: 'override', edge_to: 'rollback', reason: 'r', extra: 1 }").replace(
      'stage_start',
      'edge_selected',
    );
    const engine = scriptEngine(toml, runner);
    try {
      const outcome = await (
        await engine.emit('edge_selected', { ...CONTEXT, edge_from: 'deploy', edge_to: 'verify' })
      ).settled;
      expect(outcome).toMatchObject({ decision: 'override', edge_to: 'rollback', reason: 'r' });
      expect(outcome.hooks[0]?.decision).toEqual({ decision: 'override', edge_to: 'rollback', reason: 'r' });
    } finally {
      await engine.close();
    }
  });

  test('true proceeds, false blocks, nothing proceeds', async () => {
    const yes = await runOnce('return true', '', runner);
    expect(yes.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'proceed' } });
    const no = await runOnce('return false', '', runner);
    expect(no.hooks[0]).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'the script returned false' },
    });
    expect(no.decision).toBe('block');
    const nothing = await runOnce('const x = 1', '', runner);
    expect(nothing.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'proceed' } });
  });

  test('the script sees the context, as JSON data', async () => {
    const outcome = await runOnce('return { decision: "block", reason: JSON.stringify(context) }', '', runner);
    expect(JSON.parse(String(outcome.reason))).toEqual({ event: 'stage_start', ...CONTEXT });
  });

  test('awaited work inside the isolate counts, and its result is the answer', async () => {
    const outcome = await runOnce(
      'const n = await Promise.resolve(41); return { decision: "skip", reason: String(n + 1) }',
      '',
      runner,
    );
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'skip', reason: '42' } });
  });

  test.each([
    ['return 42', 'script returned a number (42), expected a decision object, true, false or nothing'],
    ['return "yes"', 'script returned a string ("yes"), expected a decision object, true, false or nothing'],
    ['return null', 'script returned null, expected a decision object, true, false or nothing'],
    ['return [1]', 'script returned an array, expected a decision object, true, false or nothing'],
    ['return () => 1', 'script returned a function, expected a decision object, true, false or nothing'],
    [
      'return { ok: true }',
      'script returned {"ok":true}, expected a decision object, true, false or nothing (the object has no `decision` field)',
    ],
    [
      'return { decision: "approve" }',
      'script returned {"decision":"approve"}, expected a decision object, true, false or nothing (`decision` must be "proceed", "allow", "skip", "override", "ask" or "block")',
    ],
    [
      'return { decision: "proceed", continue: "no" }',
      'script returned {"decision":"proceed","continue":"no"}, expected a decision object, true, false or nothing (`updated_input` must be an object, `continue` true or false, `additional_context`, `stop_reason` and `system_message` strings)',
    ],
    [
      'return { decision: "override" }',
      'script returned {"decision":"override"}, expected a decision object, true, false or nothing (an override needs a non-empty string `edge_to`)',
    ],
    ['const o = {}; o.self = o; return o', 'script returned an object that cannot be turned into JSON'],
  ])('%s fails the hook with what it returned', async (script, error) => {
    const outcome = await runOnce(script, '', runner);
    const report = outcome.hooks[0];
    expect(report?.status).toBe('failed');
    expect(report?.error).toContain(error);
    // on_error defaults to block for script hooks, and the failure is visible.
    expect(report?.decision).toMatchObject({ decision: 'block' });
    expect(outcome.warnings.some((warning) => warning.includes('check'))).toBe(true);
  });

  test('a throw fails the hook with the message and the line, decided by on_error', async () => {
    const outcome = await runOnce(
      'const a = 1;\nif (a) throw new TypeError("no deploys on Friday")',
      'on_error = "proceed"',
      runner,
    );
    const report = outcome.hooks[0];
    expect(report?.status).toBe('failed');
    expect(report?.error).toBe('script threw TypeError: no deploys on Friday (line 2, column 14 of the script)');
    expect(report?.decision).toMatchObject({ decision: 'proceed' });
    expect(outcome.decision).toBe('proceed');
  });

  test('a throw of a non-error value is described', async () => {
    const outcome = await runOnce('throw "nope"', '', runner);
    expect(outcome.hooks[0]?.error).toBe('script threw a string ("nope")');
  });

  test('a rejected await is a throw', async () => {
    const outcome = await runOnce('await Promise.reject(new RangeError("bad"))', '', runner);
    expect(outcome.hooks[0]?.error).toMatch(/^script threw RangeError: bad/);
  });

  test('writing to the frozen context throws, with a hint', async () => {
    const outcome = await runOnce('context.node_id = "other"; return true', '', runner);
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toMatch(/^script threw TypeError: .*read.only.*line 1.*deep-frozen/);
  });

  test('the context is frozen all the way down', async () => {
    const outcome = await runOnce(
      'return { decision: "block", reason: [Object.isFrozen(context), Object.isFrozen(context.nested), Object.isFrozen(context.nested.list)].join() }',
      '',
      runner,
      { ...CONTEXT, nested: { list: [1, { deep: true }] } },
    );
    expect(outcome.reason).toBe('true,true,true');
  });
});
