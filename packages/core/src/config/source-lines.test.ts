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

test('keys of a plain table and where each element of their array values starts', () => {
  const lines = locateSourceLines(
    [
      'preset = "task"', //                                  1
      '[hooks]', //                                          2
      'after_merge = ["a, [b]", \'c # not a comment\',', //   3
      '  # a comment, "not an item"', //                     4
      '  """multi', //                                       5
      'line""",', //                                         6
      '  "d"]', //                                           7
      'after_fail = []', //                                  8
      '"after_rework" = [ "x" ] # trailing', //              9
      '[sandbox]', //                                       10
      'provider = "local"', //                              11
    ].join('\r\n'),
  );
  expect(lines.topLevel('hooks')).toBe(2);
  expect(lines.tableKey('hooks', 'after_merge')).toBe(3);
  expect(lines.tableKey('hooks', 'after_rework')).toBe(9);
  expect(lines.tableKey('hooks', 'provider')).toBeUndefined();
  expect(lines.tableKey('sandbox', 'provider')).toBe(11);
  expect([0, 1, 2, 3, 4].map((item) => lines.tableArrayItem('hooks', 'after_merge', item))).toEqual([
    3,
    3,
    5,
    7,
    undefined,
  ]);
  expect(lines.tableArrayItem('hooks', 'after_fail', 0)).toBeUndefined();
  expect(lines.tableArrayItem('hooks', 'after_rework', 0)).toBe(9);
});

test('findHookKey finds keys of a hook and its sub-tables, without falling back to the hook line', () => {
  const lines = locateSourceLines(
    '[[hooks]]\nevent = "stop"\n[hooks.action]\ntype = "shell"\ncommand = "make"\n[[hooks]]\naction = { type = "shell" }\n',
  );
  expect(lines.findHookKey(0, 'action')).toBe(3);
  expect(lines.findHookKey(0, 'command')).toBe(5);
  expect(lines.findHookKey(1, 'action')).toBe(7);
  expect(lines.findHookKey(1, 'type')).toBeUndefined();
  expect(lines.hookKey(1, 'type')).toBe(6);
});
