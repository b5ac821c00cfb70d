import { describe, expect, test } from 'vitest';
import { compileMatcher, type Matcher } from './compile-matcher.ts';
import { MATCHER_INPUT_LIMIT } from './lookaround-matcher.ts';

function compiled(source: string): Matcher {
  const result = compileMatcher(source, { lookaround: true });
  if (!result.ok) throw new Error(`${source}: ${result.error}`);
  return result.pattern;
}

const TOOLS = [
  'Read',
  'ReadMany',
  'Bash',
  'Edit',
  'Write',
  'mcp__github__create_issue',
  'mcp__fs__Bash',
  'NotebookEdit',
  'WebFetch',
];

describe('lookaround matchers, as JavaScript reads them', () => {
  test.each([
    ['^(?!Read).*', 'negative lookahead: every tool but those starting with Read'],
    ['^(?!Read$).*', 'negative lookahead with an end'],
    ['^(?=mcp__)', 'lookahead'],
    ['(?<!mcp__fs__)Bash', 'negative lookbehind'],
    ['(?<=mcp__github__)create', 'lookbehind'],
    ['^(?!.*Edit)', 'a body that scans: no Edit anywhere'],
    ['^(?:Bash|Edit)(?!\\w)', 'after an alternation'],
  ])('%s (%s) answers as new RegExp does', (source) => {
    const matcher = compiled(source);
    const reference = new RegExp(source);
    for (const tool of TOOLS) expect([tool, matcher.test(tool)]).toEqual([tool, reference.test(tool)]);
  });

  test('catastrophic patterns are refused at load, with why and how to fix', () => {
    for (const source of [
      '(?=(a+)+)b',
      '(?=(a|a)*$)',
      '^(?!(a*)*b)',
      '(?<=(a+)+)x',
      '(a+)+(?=b)',
      '(?=a(?=b))',
      '(?=a)*b',
      '(?=a)\\1',
    ]) {
      const result = compileMatcher(source, { lookaround: true });
      expect(result.ok, source).toBe(false);
      if (!result.ok) expect(result.fix).toContain('nested or overlapping repeats');
    }
  });

  test('without the lookaround option (RE2 presets) lookaround stays refused', () => {
    const result = compileMatcher('^(?!Read).*');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('negative lookahead');
  });

  test('a long adversarial text is tried by its first MATCHER_INPUT_LIMIT characters', () => {
    const matcher = compiled('^(?!.*Edit)');
    // "Edit" beyond the cap is not seen: the text is cut before it is tried.
    expect(matcher.test(`${'a'.repeat(MATCHER_INPUT_LIMIT)}Edit`)).toBe(true);
    expect(matcher.test(`${'a'.repeat(MATCHER_INPUT_LIMIT - 4)}Edit`)).toBe(false);
    // An attack string many times the cap still answers (the cut makes it cheap).
    expect(compiled('^(?!Read)[a-z]*$').test(`${'a'.repeat(10_000_000)}!`)).toBe(true);
  });

  test('(a+)+$ without lookaround runs on RE2, linear in the input: a long adversarial text answers', () => {
    const result = compileMatcher('(a+)+$', { lookaround: true });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.pattern.test(`${'a'.repeat(100_000)}!`)).toBe(false);
  });
});
