// Many hooks: a thousand back to back with bounded memory, and concurrent hooks over a small pool.
import { describe, expect, test } from 'vitest';
import { emitSettled, scriptEngine, scriptHookToml } from '../test-support/script-engine.ts';
import { scriptRunner } from './script-runner.ts';

const MiB = 2 ** 20;

describe('stability', () => {
  test('a thousand hooks back to back keep host memory flat, on one isolate that never fills up', async () => {
    const runner = scriptRunner({ poolSize: 1 });
    // Each run builds some garbage inside the isolate, so reuse without collection would show.
    const script =
      'const seen = Array.from({ length: 200 }, (_, i) => ({ i, node: context.node_id + i })); return seen.length === 200';
    const engine = scriptEngine(scriptHookToml(script), runner);
    try {
      const run = async (count: number): Promise<void> => {
        for (let index = 0; index < count; index++) {
          const outcome = await emitSettled(engine, {
            run_id: `run-${index}`,
            workflow_name: 'soak',
            node_id: `n${index}`,
          });
          if (outcome.hooks[0]?.status !== 'ok') throw new Error(`run ${index}: ${JSON.stringify(outcome.hooks[0])}`);
        }
      };
      await run(100); // warm-up: JIT, pools, first allocations
      global.gc?.();
      const before = process.memoryUsage();
      const started = performance.now();
      await run(1_000);
      const elapsed = performance.now() - started;
      global.gc?.();
      const after = process.memoryUsage();
      const heapGrowth = (after.heapUsed - before.heapUsed) / MiB;
      const rssGrowth = (after.rss - before.rss) / MiB;
      console.log(
        `1000 hooks: ${(elapsed / 1_000).toFixed(2)} ms each; host heap ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MiB, RSS ${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(1)} MiB`,
      );
      // Loose bounds: a leak of a context per hook would be hundreds of MiB.
      expect(heapGrowth).toBeLessThan(20);
      expect(rssGrowth).toBeLessThan(64);
      // One isolate did all of it.
      expect(runner.stats()).toMatchObject({ created: 1, destroyed: 0, alive: 1 });
    } finally {
      await engine.close();
    }
  }, 120_000);

  test('concurrent hooks over a small pool all get their own answer', async () => {
    const runner = scriptRunner({ poolSize: 3 });
    const hooks = Array.from({ length: 24 }, (_, index) =>
      scriptHookToml(
        // Some awaiting, some computing, so runs interleave across the isolates.
        `let total = 0; for (let i = 0; i < ${index * 2_000}; i++) total += i % 7; await null; return { decision: 'block', reason: '${index}:' + context.node_id }`,
        'blocking = false',
        `hook-${index}`,
      ),
    );
    const engine = scriptEngine(hooks.join('\n'), runner);
    try {
      const outcomes = await Promise.all(
        [0, 1, 2].map((emit) =>
          emitSettled(engine, { run_id: `r${emit}`, workflow_name: 'w', node_id: `node-${emit}` }),
        ),
      );
      outcomes.forEach((outcome, emit) => {
        expect(outcome.hooks.map((hook) => hook.status)).toEqual(Array(24).fill('ok'));
        expect(outcome.hooks.map((hook) => hook.decision?.reason)).toEqual(
          hooks.map((_, index) => `${index}:node-${emit}`),
        );
      });
      const stats = runner.stats();
      expect(stats.created).toBeLessThanOrEqual(3);
      expect(stats).toMatchObject({ busy: 0, waiting: 0, destroyed: 0 });
    } finally {
      await engine.close();
    }
  });
});
