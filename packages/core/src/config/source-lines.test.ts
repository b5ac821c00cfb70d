import { expect, test } from 'vitest';
import { locateSourceLines } from './source-lines.ts';

test('finds top-level keys, hook tables, their keys and sub-tables, past multi-line strings', () => {
  const lines = locateSourceLines(
    [
      'preset = "arc"', //                          1
      '[sandbox]', //                               2
      'provider = "local"', //                      3
      '', //                                        4
      '[[hooks]]', //                               5
      'name = "one"', //                            6
      'command = """', //                           7
      '[[hooks]]', //                               8 (inside a string)
      'blocking = true', //                         9 (inside a string)
      '"""', //                                    10
      '  blocking = true', //                      11
      '[hooks.headers]', //                        12
      'Authorization = "x"', //                    13
      '[[hooks]]', //                              14
      '"timeout_ms" = 5', //                       15
      '[other]', //                                16
      'blocking = 1', //                           17
    ].join('\n'),
  );
  expect(lines.topLevel('preset')).toBe(1);
  expect(lines.topLevel('sandbox')).toBe(2);
  expect(lines.topLevel('hooks')).toBe(5);
  expect(lines.hook(0)).toBe(5);
  expect(lines.hookKey(0, 'blocking')).toBe(11);
  expect(lines.hookKey(0, 'headers')).toBe(12);
  expect(lines.hook(1)).toBe(14);
  expect(lines.hookKey(1, 'timeout_ms')).toBe(15);
  expect(lines.hookKey(1, 'blocking')).toBe(14);
  expect(lines.hook(2)).toBeUndefined();
});

test('hooks written as an inline array all point at the array', () => {
  const lines = locateSourceLines('\nhooks = [\n  { event = "run_start", command = "true" },\n]\n');
  expect(lines.hook(0)).toBe(2);
  expect(lines.hookKey(0, 'command')).toBe(2);
});
