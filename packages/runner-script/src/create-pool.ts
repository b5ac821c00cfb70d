/** How a pool makes, checks and ends its items. */
export interface PoolOptions<Item> {
  /** The most items alive at once; callers beyond it wait in order. */
  readonly size: number;
  /** Makes an item when one is needed and fewer than `size` are alive. May throw. */
  create(): Item;
  /** Whether an item can serve again (checked when it comes back and before it is handed out). */
  isUsable(item: Item): boolean;
  /** Ends an item that is unusable or no longer wanted. Must not throw. */
  destroy(item: Item): void;
}

/** Counts for monitoring and tests. `created` and `destroyed` are totals since the pool was made. */
export interface PoolStats {
  readonly alive: number;
  readonly idle: number;
  readonly busy: number;
  readonly waiting: number;
  readonly created: number;
  readonly destroyed: number;
}

/** A bounded pool of reusable items, made lazily. */
export interface Pool<Item> {
  /** An idle item, a new one, or the next one released; rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<Item>;
  /** Gives an item back; an unusable one is destroyed and its place goes to a new item for a waiter. */
  release(item: Item): void;
  /** Destroys every item, idle or busy, and rejects every waiter. The pool can be used again after. */
  close(reason: unknown): void;
  stats(): PoolStats;
}

interface Waiter<Item> {
  resolve(item: Item): void;
  reject(reason: unknown): void;
}

/** Creates a {@link Pool}. No item is made before the first `acquire`. */
export function createPool<Item>(options: PoolOptions<Item>): Pool<Item> {
  // Most recently released last: reusing it keeps the fewest items warm.
  const idle: Item[] = [];
  const busy = new Set<Item>();
  const waiters: Array<Waiter<Item>> = [];
  let created = 0;
  let destroyed = 0;

  const destroy = (item: Item): void => {
    destroyed++;
    options.destroy(item);
  };
  const make = (): Item => {
    const item = options.create();
    created++;
    busy.add(item);
    return item;
  };
  // A place freed up: the longest waiter gets a new item.
  const serveWaiter = (): void => {
    const waiter = waiters.shift();
    if (waiter === undefined) return;
    try {
      waiter.resolve(make());
    } catch (error) {
      waiter.reject(error);
    }
  };

  return {
    acquire(signal) {
      if (signal?.aborted === true) return Promise.reject(signal.reason);
      for (let item = idle.pop(); item !== undefined; item = idle.pop()) {
        if (options.isUsable(item)) {
          busy.add(item);
          return Promise.resolve(item);
        }
        destroy(item);
      }
      if (busy.size < options.size) {
        try {
          return Promise.resolve(make());
        } catch (error) {
          return Promise.reject(error);
        }
      }
      return new Promise<Item>((resolve, reject) => {
        const onAbort = (): void => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(signal?.reason);
        };
        const waiter: Waiter<Item> = {
          resolve(item) {
            signal?.removeEventListener('abort', onAbort);
            resolve(item);
          },
          reject(reason) {
            signal?.removeEventListener('abort', onAbort);
            reject(reason);
          },
        };
        waiters.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    release(item) {
      // The pool closed while the item was out, and destroyed it then.
      if (!busy.delete(item)) return;
      if (!options.isUsable(item)) {
        destroy(item);
        serveWaiter();
        return;
      }
      const waiter = waiters.shift();
      if (waiter === undefined) {
        idle.push(item);
      } else {
        busy.add(item);
        waiter.resolve(item);
      }
    },
    close(reason) {
      for (const item of [...idle, ...busy]) destroy(item);
      idle.length = 0;
      busy.clear();
      for (const waiter of waiters.splice(0)) waiter.reject(reason);
    },
    stats() {
      return {
        alive: idle.length + busy.size,
        idle: idle.length,
        busy: busy.size,
        waiting: waiters.length,
        created,
        destroyed,
      };
    },
  };
}
