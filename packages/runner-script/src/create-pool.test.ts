// The pool's own rules, with plain objects as items: laziness, the bound, order, abort, replacement.
import { describe, expect, test } from 'vitest';
import { createPool } from './create-pool.ts';

interface Item {
  readonly id: number;
  usable: boolean;
  destroyed: boolean;
}

function itemPool(size: number) {
  let next = 0;
  const made: Item[] = [];
  const pool = createPool<Item>({
    size,
    create: () => {
      const item = { id: next++, usable: true, destroyed: false };
      made.push(item);
      return item;
    },
    isUsable: (item) => item.usable,
    destroy: (item) => {
      item.destroyed = true;
    },
  });
  return { pool, made };
}

describe('createPool', () => {
  test('makes nothing until asked, then reuses what comes back', async () => {
    const { pool, made } = itemPool(2);
    expect(made).toHaveLength(0);
    const first = await pool.acquire();
    pool.release(first);
    expect(await pool.acquire()).toBe(first);
    expect(made).toHaveLength(1);
  });

  test('never has more than `size` out; waiters are served in order', async () => {
    const { pool } = itemPool(1);
    const held = await pool.acquire();
    const order: string[] = [];
    const a = pool.acquire().then((item) => (order.push('a'), item));
    const b = pool.acquire().then((item) => (order.push('b'), item));
    expect(pool.stats()).toMatchObject({ busy: 1, waiting: 2 });
    pool.release(held);
    pool.release(await a);
    await b;
    expect(order).toEqual(['a', 'b']);
    expect(pool.stats()).toMatchObject({ created: 1, busy: 1, waiting: 0 });
  });

  test('an unusable item is destroyed on return and a new one goes to the next waiter', async () => {
    const { pool, made } = itemPool(1);
    const broken = await pool.acquire();
    const waiting = pool.acquire();
    broken.usable = false;
    pool.release(broken);
    const replacement = await waiting;
    expect(broken.destroyed).toBe(true);
    expect(replacement).not.toBe(broken);
    expect(made).toHaveLength(2);
    expect(pool.stats()).toMatchObject({ alive: 1, created: 2, destroyed: 1 });
  });

  test('an idle item that went bad is replaced when handed out', async () => {
    const { pool } = itemPool(1);
    const item = await pool.acquire();
    pool.release(item);
    item.usable = false;
    const next = await pool.acquire();
    expect(next).not.toBe(item);
    expect(item.destroyed).toBe(true);
  });

  test('a waiter leaves the queue when its signal aborts', async () => {
    const { pool } = itemPool(1);
    const held = await pool.acquire();
    const controller = new AbortController();
    const waiting = pool.acquire(controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(pool.stats().waiting).toBe(0);
    pool.release(held);
    expect(pool.stats()).toMatchObject({ idle: 1, busy: 0 });
    await expect(pool.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  test('close destroys idle and busy items, rejects waiters, and the pool starts afresh after', async () => {
    const { pool, made } = itemPool(1);
    const busy = await pool.acquire();
    const waiting = pool.acquire();
    pool.close(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    expect(busy.destroyed).toBe(true);
    pool.release(busy); // late return of an item the close already destroyed
    expect(pool.stats()).toMatchObject({ alive: 0, destroyed: 1 });
    const fresh = await pool.acquire();
    expect(fresh).not.toBe(busy);
    expect(made).toHaveLength(2);
  });

  test('a failing create rejects the acquire and leaves the count alone', async () => {
    const pool = createPool<object>({
      size: 1,
      create: () => {
        throw new Error('no isolates today');
      },
      isUsable: () => true,
      destroy: () => {},
    });
    await expect(pool.acquire()).rejects.toThrow('no isolates today');
    expect(pool.stats()).toMatchObject({ alive: 0, created: 0 });
  });
});
