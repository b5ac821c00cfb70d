// The context made ahead of time for an isolate's next run: handed out once, made only after the
// previous run's context was released, and never something a run has touched.
import ivm from 'isolated-vm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { prepareNextContext, takeFreshContext } from './fresh-context.ts';
import { createIsolatePools, type IsolatePools } from './isolate-pools.ts';
import { runInIsolate } from './run-in-isolate.ts';
import { scriptSource } from './script-source.ts';

let pools: IsolatePools;
beforeEach(() => {
  pools = createIsolatePools(1, () => {});
});
afterEach(() => pools.close(new Error('test over')));

const limits = () => ({ signal: new AbortController().signal, timeoutMs: 5_000 });

describe('fresh contexts', () => {
  test('a run leaves the next context prepared, and the next run takes that one', async () => {
    const member = await pools.forLimit(32, ivm).acquire();
    expect(member.nextContext).toBeUndefined();
    const source = scriptSource('return true', 'inline', 'x');
    expect(await runInIsolate(member, source, '{}', limits())).toEqual({ kind: 'answer', text: expect.any(String) });
    const prepared = member.nextContext;
    expect(prepared).toBeDefined();
    await runInIsolate(member, source, '{}', limits());
    // The prepared one was used up; a new one stands ready.
    expect(member.nextContext).toBeDefined();
    expect(member.nextContext).not.toBe(prepared);
  });

  test('a prepared context is handed out once', async () => {
    const member = await pools.forLimit(32, ivm).acquire();
    prepareNextContext(member);
    const first = await takeFreshContext(member);
    const second = await takeFreshContext(member);
    expect(second).not.toBe(first);
    expect(second.global).not.toBe(first.global);
  });

  test('a hundred runs in a row on one isolate each start on a global no earlier run wrote', async () => {
    const member = await pools.forLimit(32, ivm).acquire();
    const source = scriptSource(
      'const seen = typeof globalThis.marker + "/" + typeof ({}).polluted; globalThis.marker = context.n; Object.prototype.polluted = context.n; return { decision: "block", reason: seen }',
      'inline',
      'x',
    );
    const answers = new Set<string>();
    for (let n = 0; n < 100; n++) {
      const outcome = await runInIsolate(member, source, JSON.stringify({ n }), limits());
      expect(outcome.kind).toBe('answer');
      answers.add(String((outcome as { text: unknown }).text));
    }
    expect([...answers].map((text) => (JSON.parse(JSON.parse(text).json) as { reason: string }).reason)).toEqual([
      'undefined/undefined',
    ]);
  });

  test('an isolate disposed with a context still being prepared gives no unhandled rejection and makes no more', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const pool = pools.forLimit(32, ivm);
      const member = await pool.acquire();
      prepareNextContext(member);
      member.isolate.dispose();
      prepareNextContext(member);
      pool.release(member);
      expect(member.nextContext).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
