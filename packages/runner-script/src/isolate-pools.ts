import type IsolatedVM from 'isolated-vm';
import { createPool, type Pool, type PoolStats } from './create-pool.ts';
import type { ScriptSource } from './script-source.ts';

/** One warm isolate and what it has compiled. */
export interface PooledIsolate {
  readonly isolate: IsolatedVM.Isolate;
  readonly memoryLimitMb: number;
  /** Compiled programs by {@link ScriptSource.key}, least recently used first. */
  readonly scripts: Map<string, IsolatedVM.Script>;
  /** The isolate's CPU time when it last went idle; see {@link IDLE_CPU_BUDGET_NS}. */
  idleCpuTime: bigint;
  /** The next run's context, made while the isolate was idle (see `prepareNextContext`); never used yet. */
  nextContext: Promise<IsolatedVM.Context> | undefined;
}

/** Isolate pools, one per memory limit in use (an isolate's limit is fixed when it is made). */
export interface IsolatePools {
  /** The pool of isolates with this limit, made on first use. */
  forLimit(memoryLimitMb: number, ivm: typeof IsolatedVM): Pool<PooledIsolate>;
  /** Disposes every isolate (ending runs in flight) and forgets the pools; later runs start afresh. */
  close(reason: unknown): void;
  /** Totals over all pools. */
  stats(): PoolStats;
}

/**
 * An idle isolate should burn no CPU. If it did (something the harness did not foresee scheduled
 * work outside a hook's run), it is replaced rather than handed to the next hook, whose deadline
 * would pay for it. The budget leaves room for V8's idle-time garbage collection and for making the
 * next run's context, which an isolate does once after each run (well under a millisecond).
 */
export const IDLE_CPU_BUDGET_NS = 50_000_000n;

/** Compiled programs kept per isolate; a config has few scripts, a changing file adds one per version. */
const SCRIPTS_PER_ISOLATE = 64;

/** Creates the pools; nothing is made until a hook runs. */
export function createIsolatePools(size: number, onCatastrophicError: (message: string) => void): IsolatePools {
  const pools = new Map<number, Pool<PooledIsolate>>();
  // Totals of pools already closed, so stats() keeps counting across close().
  let closedCreated = 0;
  let closedDestroyed = 0;

  const poolFor = (memoryLimitMb: number, ivm: typeof IsolatedVM): Pool<PooledIsolate> =>
    createPool<PooledIsolate>({
      size,
      create: () => ({
        isolate: new ivm.Isolate({ memoryLimit: memoryLimitMb, onCatastrophicError }),
        memoryLimitMb,
        scripts: new Map(),
        idleCpuTime: 0n,
        nextContext: undefined,
      }),
      isUsable: (member) =>
        !member.isolate.isDisposed && member.isolate.cpuTime - member.idleCpuTime < IDLE_CPU_BUDGET_NS,
      destroy: (member) => {
        if (!member.isolate.isDisposed) member.isolate.dispose();
        member.scripts.clear();
        // Disposing the isolate ended its contexts, a prepared one too.
        member.nextContext = undefined;
      },
    });

  return {
    forLimit(memoryLimitMb, ivm) {
      let pool = pools.get(memoryLimitMb);
      if (pool === undefined) {
        pool = poolFor(memoryLimitMb, ivm);
        pools.set(memoryLimitMb, pool);
      }
      return pool;
    },
    close(reason) {
      for (const pool of pools.values()) {
        pool.close(reason);
        const { created, destroyed } = pool.stats();
        closedCreated += created;
        closedDestroyed += destroyed;
      }
      pools.clear();
    },
    stats() {
      const total = { alive: 0, idle: 0, busy: 0, waiting: 0, created: closedCreated, destroyed: closedDestroyed };
      for (const pool of pools.values()) {
        const stats = pool.stats();
        total.alive += stats.alive;
        total.idle += stats.idle;
        total.busy += stats.busy;
        total.waiting += stats.waiting;
        total.created += stats.created;
        total.destroyed += stats.destroyed;
      }
      return total;
    },
  };
}

/** The compiled program of `source` in this isolate, compiling it on first use (off the host's thread). */
export async function compiledScript(member: PooledIsolate, source: ScriptSource): Promise<IsolatedVM.Script> {
  const cached = member.scripts.get(source.key);
  if (cached !== undefined) {
    // Map order is the LRU order: move it to the end.
    member.scripts.delete(source.key);
    member.scripts.set(source.key, cached);
    return cached;
  }
  const script = await member.isolate.compileScript(source.program, {
    filename: source.filename,
    lineOffset: source.lineOffset,
  });
  member.scripts.set(source.key, script);
  if (member.scripts.size > SCRIPTS_PER_ISOLATE) {
    const [oldest, evicted] = member.scripts.entries().next().value!;
    member.scripts.delete(oldest);
    evicted.release();
  }
  return script;
}
