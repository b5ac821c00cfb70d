// The isolate pools with real isolates: one pool per memory limit, replacement of an isolate that
// worked while idle, and the per-isolate cache of compiled programs.
import ivm from 'isolated-vm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { compiledScript, createIsolatePools, IDLE_CPU_BUDGET_NS, type IsolatePools } from './isolate-pools.ts';
import { scriptSource } from './script-source.ts';

let pools: IsolatePools;
beforeEach(() => {
  pools = createIsolatePools(2, () => {});
});
afterEach(() => pools.close(new Error('test over')));

describe('isolate pools', () => {
  test('one pool per memory limit, isolates made on demand with that limit', async () => {
    expect(pools.stats().alive).toBe(0);
    const small = await pools.forLimit(16, ivm).acquire();
    const large = await pools.forLimit(64, ivm).acquire();
    expect([small.memoryLimitMb, large.memoryLimitMb]).toEqual([16, 64]);
    expect(small.isolate.getHeapStatisticsSync().heap_size_limit).toBeLessThan(
      large.isolate.getHeapStatisticsSync().heap_size_limit,
    );
    expect(pools.stats()).toMatchObject({ alive: 2, busy: 2 });
  });

  test('an isolate that burned CPU while idle is replaced instead of reused', async () => {
    const pool = pools.forLimit(32, ivm);
    const member = await pool.acquire();
    member.idleCpuTime = member.isolate.cpuTime;
    pool.release(member);
    // Work that escaped a run, simulated from outside: the isolate spins while it sits in the pool.
    const context = member.isolate.createContextSync();
    context.evalSync(
      `const end = Date.now() + ${Number(IDLE_CPU_BUDGET_NS / 1_000_000n) * 2}; while (Date.now() < end) {}`,
    );
    const next = await pool.acquire();
    expect(next).not.toBe(member);
    expect(member.isolate.isDisposed).toBe(true);
    expect(pools.stats()).toMatchObject({ created: 2, destroyed: 1 });
  });

  test('a quiet idle isolate is reused', async () => {
    const pool = pools.forLimit(32, ivm);
    const member = await pool.acquire();
    member.idleCpuTime = member.isolate.cpuTime;
    pool.release(member);
    expect(await pool.acquire()).toBe(member);
  });

  test('compiled programs are cached per isolate, least recently used out first', async () => {
    const member = await pools.forLimit(32, ivm).acquire();
    const first = scriptSource('return 0', 'inline', 'x');
    const script = await compiledScript(member, first);
    expect(await compiledScript(member, first)).toBe(script);
    for (let index = 1; index <= 64; index++)
      await compiledScript(member, scriptSource(`return ${index}`, 'inline', 'x'));
    expect(member.scripts.size).toBe(64);
    expect(member.scripts.has(first.key)).toBe(false);
  });
});
