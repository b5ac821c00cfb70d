import { describe, expect, test } from 'vitest';
import { claimLoop } from './claim-loop.ts';

// A queue that loops claim from, counting how many items run at once.
function queue(items: number[]) {
  let running = 0;
  const state = { most: 0, ran: [] as number[] };
  return {
    state,
    items,
    claim: async () => items.shift(),
    run: async (item: number) => {
      running++;
      state.most = Math.max(state.most, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      state.ran.push(item);
      running--;
    },
  };
}

describe('claimLoop', () => {
  test('without a signal it drains with `concurrency` loops and returns when nothing is left', async () => {
    const work = queue([1, 2, 3, 4, 5, 6, 7]);
    await claimLoop({ concurrency: 3, claim: work.claim, run: work.run, pollMs: 10 });
    expect(work.state.ran.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(work.state.most).toBe(3);
  });

  test('without a signal a failed claim rejects once the other loops stopped', async () => {
    const work = queue([1, 2]);
    let calls = 0;
    const claim = async () => {
      if (++calls === 2) throw new Error('journal gone');
      return work.claim();
    };
    await expect(claimLoop({ concurrency: 1, claim, run: work.run, pollMs: 10 })).rejects.toThrow('journal gone');
    expect(work.state.ran).toEqual([1]);
  });

  test('with a signal idle loops share one wait for work, wake when it resolves, and abort stops claiming', async () => {
    const work = queue([]);
    const stop = new AbortController();
    const failures: string[] = [];
    let waits = 0;
    let wake: (() => void) | undefined;
    const running = claimLoop({
      concurrency: 4,
      claim: work.claim,
      run: async (item) => {
        await work.run(item);
        if (item === 2) stop.abort();
      },
      signal: stop.signal,
      pollMs: 60_000,
      onClaimError: (error) => failures.push(String(error)),
      waitForWork: (_maxWaitMs, signal) => {
        waits++;
        return new Promise((resolve) => {
          wake = () => resolve(true);
          signal.addEventListener('abort', () => resolve(false), { once: true });
        });
      },
    });
    while (wake === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(waits).toBe(1);
    work.items.push(1);
    wake();
    while (!work.state.ran.includes(1)) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(failures).toEqual([]);
    work.items.push(2, 3, 4, 5, 6, 7, 8, 9);
    wake();
    await running;
    // Item 2 stopped the loops: at most the three items other loops had claimed meanwhile ran after it.
    expect(work.state.ran.length).toBeLessThan(9);
    expect(work.items.length).toBeGreaterThan(0);
  });

  test('with a signal a failed claim is reported and claimed again after pollMs', async () => {
    const stop = new AbortController();
    const failures: string[] = [];
    const ran: number[] = [];
    let calls = 0;
    const claim = async () => {
      calls++;
      if (calls === 1) throw new Error('server restarting');
      return calls === 2 ? 7 : undefined;
    };
    await claimLoop({
      concurrency: 1,
      claim,
      run: async (item) => {
        ran.push(item);
        stop.abort();
      },
      signal: stop.signal,
      pollMs: 5,
      onClaimError: (error) => failures.push(String(error)),
    });
    expect(failures).toEqual(['Error: server restarting']);
    expect(ran).toEqual([7]);
  });
});
