// What a script can reach: nothing of the host, no I/O, no state from earlier runs.
import { afterAll, describe, expect, test } from 'vitest';
import { CONTEXT, runOnce } from '../test-support/script-engine.ts';
import { scriptRunner } from './script-runner.ts';

// One isolate, so every test below runs in the same isolate as the ones before it.
const runner = scriptRunner({ poolSize: 1 });
afterAll(() => runner.doClose?.());

/** Runs `expression` in a script and returns its value, carried out as the block reason. */
async function evaluate(expression: string): Promise<unknown> {
  const outcome = await runOnce(
    `return { decision: 'block', reason: JSON.stringify(await (async () => (${expression}))()) }`,
    '',
    runner,
    CONTEXT,
  );
  expect(outcome.hooks[0]?.status, String(outcome.hooks[0]?.error)).toBe('ok');
  return JSON.parse(String(outcome.reason));
}

// ECMAScript's own globals (and Intl); anything else on the global object would come from a host.
const LANGUAGE_GLOBALS = new Set(
  (
    'Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise RegExp Error ' +
    'AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError SuppressedError globalThis JSON Math Intl ' +
    'ArrayBuffer SharedArrayBuffer Atomics Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array BigUint64Array ' +
    'BigInt64Array Uint8ClampedArray Float16Array Float32Array Float64Array DataView Map BigInt Set Iterator WeakMap WeakSet ' +
    'Proxy Reflect WeakRef DisposableStack AsyncDisposableStack decodeURI decodeURIComponent encodeURI encodeURIComponent ' +
    'escape unescape eval isFinite isNaN'
  ).split(' '),
);

describe('isolation', () => {
  test.each([
    'process',
    'require',
    'module',
    'exports',
    'fetch',
    'console',
    'setTimeout',
    'setInterval',
    'setImmediate',
    'queueMicrotask',
    'Buffer',
    'structuredClone',
    'WebAssembly',
    'FinalizationRegistry',
    'navigator',
    'Deno',
    'Bun',
  ])('%s does not exist inside a script', async (name) => {
    expect(await evaluate(`typeof ${name}`)).toBe('undefined');
  });

  test('the global object holds only the language', async () => {
    // Globals V8 makes non-configurable (a flag's `gc`, under this test's --expose-gc) stay as names, emptied.
    const names = (await evaluate(
      'Object.getOwnPropertyNames(globalThis).filter((name) => globalThis[name] !== undefined)',
    )) as string[];
    expect(names.filter((name) => !LANGUAGE_GLOBALS.has(name))).toEqual([]);
  });

  test('a global a V8 flag adds to every isolate is emptied', async () => {
    // vitest.config.ts starts this process with --expose-gc, which gives every isolate a `gc`.
    expect(
      await evaluate('[typeof gc, Object.getOwnPropertyDescriptor(globalThis, "gc")?.writable ?? "absent"]'),
    ).toEqual(['undefined', false]);
  });

  test('the constructor escape finds the isolate, not the host', async () => {
    expect(await evaluate(`globalThis.constructor.constructor('return typeof process')()`)).toBe('undefined');
    expect(await evaluate(`context.constructor.constructor('return typeof require')()`)).toBe('undefined');
    expect(await evaluate(`(async () => {}).constructor('return typeof fetch')().then((type) => type)`)).toBe(
      'undefined',
    );
    expect(await evaluate(`Object.getOwnPropertyNames(Function('return this')()).includes('process')`)).toBe(false);
  });

  test('a script runs in strict mode with no `this`', async () => {
    expect(await evaluate('typeof this')).toBe('undefined');
    expect(await evaluate('(function () { return typeof this })()')).toBe('undefined');
  });

  test('dynamic import has no module loader behind it', async () => {
    const outcome = await runOnce("await import('node:fs'); return true", '', runner);
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toMatch(/^script threw/);
  });

  test('stack traces show only the script', async () => {
    const stack = String(await evaluate('new Error("where").stack'));
    expect(stack).not.toMatch(/node:|\/node_modules\/|runner-script\/src/);
  });

  test('nothing a script changes survives into the next run', async () => {
    await runOnce(
      'globalThis.leak = 1; Object.prototype.polluted = true; Array.prototype.push = () => 0; JSON.parse = () => ({}); return true',
      '',
      runner,
    );
    expect(await evaluate('[typeof leak, ({}).polluted === undefined, [].push(1), JSON.parse("[1]").length]')).toEqual([
      'undefined',
      true,
      1,
      1,
    ]);
  });

  test('a script cannot change the host context it was given', async () => {
    const context = { ...CONTEXT, nested: { value: 1 } };
    const outcome = await runOnce('try { context.nested.value = 2 } catch {} return true', '', runner, context);
    expect(outcome.hooks[0]?.status).toBe('ok');
    expect(context.nested.value).toBe(1);
  });

  test('replacing built-ins the answer needs fails only that hook', async () => {
    const outcome = await runOnce('JSON.stringify = () => 42; return true', '', runner);
    // The harness captured JSON before the script ran, so the answer still reads.
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'proceed' } });
    const polluted = await runOnce(
      'Object.prototype.toJSON = function () { return "forged" }; return true',
      '',
      runner,
    );
    expect(polluted.hooks[0]?.status).toBe('failed');
    expect(polluted.hooks[0]?.error).toMatch(/answer could not be read/);
  });

  test('a missing host global gets a hint', async () => {
    const outcome = await runOnce('console.log("hi"); return true', '', runner);
    expect(outcome.hooks[0]?.error).toBe(
      'script threw ReferenceError: console is not defined (line 1, column 1 of the script); scripts run in an isolate with no host objects and no I/O (no console, require, process, fetch or timers): compute a decision from `context` and put any message in its reason',
    );
  });
});
