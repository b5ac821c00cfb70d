import { expect, test } from 'vitest';
import { createOutputCapture } from './output-capture.ts';

test('keeps bytes up to the limit, drops and flags the rest, and copies what it keeps', () => {
  const capture = createOutputCapture(5);
  const source = new Uint8Array([1, 2, 3]);
  capture.write(source);
  source[0] = 9;
  capture.write(new Uint8Array([4, 5, 6, 7]));
  capture.write(new Uint8Array([8]));
  expect([...capture.bytes()]).toEqual([1, 2, 3, 4, 5]);
  expect(capture.truncated).toBe(true);
});

test('an exact fit is not truncated, and empty chunks change nothing', () => {
  const capture = createOutputCapture(3);
  capture.write(new Uint8Array([]));
  capture.write(new Uint8Array([1, 2, 3]));
  expect(capture.truncated).toBe(false);
  expect(capture.bytes()).toHaveLength(3);
});
