// Deadlines and memory: runaway scripts end as timed_out or failed, their isolate is replaced, and
// the next hook runs normally.
import { describe, expect, test } from 'vitest';
import { emitSettled, runOnce, scriptEngine, scriptHookToml } from '../test-support/script-engine.ts';
import { scriptRunner } from './script-runner.ts';

const MEMORY_BOMB = 'const hoard = []; while (true) hoard.push("x".repeat(1024) + hoard.length);';

describe('limits', () => {
  test('a busy loop is timed_out at the deadline and its isolate replaced', async () => {
    const runner = scriptRunner({ poolSize: 1 });
    const warm = scriptEngine(scriptHookToml('return true'), runner);
    const engine = scriptEngine(scriptHookToml('while (true) {}', 'timeout_ms = 400'), runner);
    try {
      // Warm: the isolate exists before the timed run, so the run measures the deadline alone.
      expect((await emitSettled(warm)).hooks[0]?.status).toBe('ok');
      const before = runner.stats();
      const started = performance.now();
      const outcome = await emitSettled(engine);
      const elapsed = performance.now() - started;
      // timed_out with the engine's words: the engine's deadline ended the loop, while the host kept
      // running (a frozen host could not have fired it). Had the isolate's own clock, a second later,
      // stopped it first, the hook would be failed ("script ran past its timeout").
      expect(outcome.hooks[0]).toMatchObject({
        status: 'timed_out',
        error: 'hook timed out after 400 ms',
        decision: { decision: 'block' },
      });
      console.log(`busy loop: timed out after ${elapsed.toFixed(0)} ms (limit 400 ms, ${(elapsed / 400).toFixed(2)}×)`);
      await waitFor(() => runner.stats().destroyed > before.destroyed);
      expect(runner.stats()).toMatchObject({ created: before.created, destroyed: before.destroyed + 1, busy: 0 });
      // The replacement is made when the next hook needs it.
      expect((await emitSettled(warm)).hooks[0]?.status).toBe('ok');
      expect(runner.stats()).toMatchObject({ created: before.created + 1, alive: 1 });
    } finally {
      await engine.close();
      await warm.close();
    }
  });

  test('a never-settling await is timed_out too', async () => {
    const runner = scriptRunner({ poolSize: 1 });
    const started = performance.now();
    const outcome = await runOnce('await new Promise(() => {}); return true', 'timeout_ms = 300', runner);
    const elapsed = performance.now() - started;
    // The engine's deadline, not the isolate's clock (which would fail it: "script ran past its timeout").
    expect(outcome.hooks[0]).toMatchObject({ status: 'timed_out', error: 'hook timed out after 300 ms' });
    console.log(`never-settling await: timed out after ${elapsed.toFixed(0)} ms (limit 300 ms)`);
    expect(runner.stats().alive).toBe(0);
  });

  test('a loop after an await is stopped as well', async () => {
    const outcome = await runOnce('await null; for (;;) {}', 'timeout_ms = 300');
    expect(outcome.hooks[0]?.status).toBe('timed_out');
  });

  test('work a script leaves behind after answering is stopped, not left running', async () => {
    const runner = scriptRunner({ poolSize: 1 });
    const engine = scriptEngine(
      scriptHookToml('(async () => { await null; for (;;) {} })(); return true', 'timeout_ms = 300'),
      runner,
    );
    try {
      const outcome = await emitSettled(engine);
      // The microtask runs before the answer leaves the isolate, inside the run's deadline.
      expect(outcome.hooks[0]?.status).toBe('timed_out');
    } finally {
      await engine.close();
    }
  });

  test('a memory bomb fails the hook, its isolate is replaced, and the next hook works', async () => {
    const runner = scriptRunner({ poolSize: 1, memoryLimitMb: 16 });
    const bomb = scriptEngine(scriptHookToml(MEMORY_BOMB, 'timeout_ms = 20000'), runner);
    const fine = scriptEngine(scriptHookToml('return { decision: "block", reason: "still here" }'), runner);
    try {
      const rssBefore = process.memoryUsage().rss;
      const outcome = await emitSettled(bomb);
      const report = outcome.hooks[0];
      expect(report?.status).toBe('failed');
      expect(report?.error).toBe(
        'script ran out of memory: its isolate passed the 16 MiB limit and was replaced (set memory_limit_mb if the hook needs more)',
      );
      expect(report?.decision).toMatchObject({ decision: 'block' });
      expect(runner.stats()).toMatchObject({ created: 1, destroyed: 1, alive: 0 });
      const after = await emitSettled(fine);
      expect(after.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'block', reason: 'still here' } });
      expect(runner.stats()).toMatchObject({ created: 2, destroyed: 1, alive: 1 });
      console.log(`memory bomb: host RSS grew ${((process.memoryUsage().rss - rssBefore) / 2 ** 20).toFixed(1)} MiB`);
    } finally {
      await bomb.close();
      await fine.close();
    }
  });

  test('memory_limit_mb sets the limit per hook', async () => {
    const runner = scriptRunner({ poolSize: 1, memoryLimitMb: 8 });
    // 48 MiB of arrays of doubles: far over the runner's 8 MiB (isolated-vm's limit is soft), within the hook's 128.
    const script =
      'const parts = []; for (let i = 0; i < 48; i++) parts.push(new Array(1 << 17).fill(i + 0.5)); return parts.length === 48';
    const tight = await runOnce(script, 'timeout_ms = 10000', runner);
    expect(tight.hooks[0]?.error).toMatch(/^script ran out of memory: its isolate passed the 8 MiB limit/);
    const roomy = await runOnce(script, 'timeout_ms = 10000\nmemory_limit_mb = 128', runner);
    expect(roomy.hooks[0]).toMatchObject({ status: 'ok', decision: { decision: 'proceed' } });
  });

  test('closing the engine ends a running script and its isolate', async () => {
    const runner = scriptRunner({ poolSize: 1 });
    const engine = scriptEngine(scriptHookToml('while (true) {}', 'timeout_ms = 60000'), runner);
    const pending = engine.emit('stage_start', { run_id: 'r', workflow_name: 'w' });
    await waitFor(() => runner.stats().busy === 1);
    await engine.close();
    const outcome = await pending;
    expect(outcome.hooks[0]).toMatchObject({ status: 'failed', error: 'the engine closed while the hook ran' });
    expect(runner.stats()).toMatchObject({ alive: 0, destroyed: 1 });
  });

  test('hooks waiting for an isolate give up at their deadline', async () => {
    const runner = scriptRunner({ poolSize: 1 });
    const toml = [
      scriptHookToml('while (true) {}', 'timeout_ms = 600\nblocking = false', 'spin'),
      scriptHookToml('return true', 'timeout_ms = 200\nblocking = false', 'queued'),
    ].join('\n');
    const engine = scriptEngine(toml, runner);
    try {
      const outcome = await emitSettled(engine);
      expect(outcome.hooks.map((hook) => hook.status)).toEqual(['timed_out', 'timed_out']);
      expect(runner.stats().waiting).toBe(0);
    } finally {
      await engine.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
