import { expect, test } from 'vitest';
import { createInFlight } from './create-in-flight.ts';

function deferred(): { promise: Promise<string>; resolve: (value: string) => void; reject: (error: Error) => void } {
  let resolve!: (value: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

test('tracked work leaves once it settles, fulfilled or rejected, and track returns it unchanged', async () => {
  const work = createInFlight();
  const first = deferred();
  const second = deferred();
  expect(work.track(first.promise)).toBe(first.promise);
  void work.track(second.promise);
  expect(work.size).toBe(2);
  first.resolve('done');
  second.reject(new Error('broken'));
  await expect(second.promise).rejects.toThrow('broken');
  await work.settled();
  expect(work.size).toBe(0);
});

test('settled waits for what was tracked at the call and never rejects; idle also waits for work added meanwhile', async () => {
  const work = createInFlight();
  const first = deferred();
  const later = deferred();
  work.track(first.promise).catch(() => undefined);
  const order: string[] = [];
  const settled = work.settled().then(() => order.push('settled'));
  const idle = work.idle().then(() => order.push('idle'));
  // Tracked after both calls: settled() does not wait for it, idle() does.
  void work.track(later.promise);
  first.reject(new Error('failed'));
  await settled;
  expect(order).toEqual(['settled']);
  expect(work.size).toBe(1);
  later.resolve('done');
  await idle;
  expect(order).toEqual(['settled', 'idle']);
  expect(work.size).toBe(0);
});
