import { expect, test } from 'vitest';
import { AttemptWindow } from './attempt-window.ts';

test('the window counts its attempts and failures as they come, drop by age and past its capacity', () => {
  const window = new AttemptWindow(3);
  window.push(1, true);
  window.push(2, false);
  window.push(3, true);
  expect([window.size, window.failures]).toEqual([3, 2]);
  window.push(4, false); // the oldest (a failure) falls out
  expect([window.size, window.failures]).toEqual([3, 1]);
  window.dropBefore(4);
  expect([window.size, window.failures]).toEqual([1, 0]);
  window.clear();
  expect([window.size, window.failures]).toEqual([0, 0]);
});

test('a long run keeps exact counts across compactions', () => {
  const window = new AttemptWindow(1_000);
  const kept: boolean[] = [];
  for (let at = 0; at < 10_000; at++) {
    const failed = at % 3 === 0 || at % 7 === 0;
    window.push(at, failed);
    kept.push(failed);
    if (at % 500 === 0) window.dropBefore(at - 800);
  }
  const live = kept.slice(-window.size);
  expect(window.size).toBeLessThanOrEqual(1_000);
  expect(window.failures).toBe(live.filter(Boolean).length);
});
