import { RE2JS } from 're2js';
import { describe, expect, test } from 'vitest';
import { compileMatcher, type Matcher } from './compile-matcher.ts';
import { literalAlternatives } from './literal-alternatives.ts';

function compiled(source: string): Matcher {
  const result = compileMatcher(source);
  if (!result.ok) throw new Error(`${source}: ${result.error}`);
  return result.pattern;
}

describe('patterns a backtracking engine cannot finish', () => {
  // Each takes seconds to centuries under a backtracking engine on these inputs; RE2 answers at once.
  test.each([
    ['(a+)+$', `${'a'.repeat(40)}!`],
    ['(a|aa)+$', `${'a'.repeat(60)}!`],
    ['^(\\w+\\s?)*$', `${'word '.repeat(20)}!`],
    ['(x+x+)+y', 'x'.repeat(5_000)],
  ])('%s against a long non-match is answered', (source, text) => {
    expect(compiled(source).test(text)).toBe(false);
    expect(compiled(source).test(`${text.slice(0, -1)}`)).toBe(source === '(x+x+)+y' ? false : true);
  });
});

describe('what RE2 cannot express is refused with the reason', () => {
  test.each([
    ['(a)\\1', 'backreference `\\1` is not supported'],
    ['(?<n>a)\\k<n>', 'backreference `\\k<…>` is not supported'],
    ['(?=x)', 'lookahead `(?=…)` is not supported'],
    ['a(?!b)', 'negative lookahead `(?!…)` is not supported'],
    ['(?<=a)b', 'lookbehind `(?<=…)` is not supported'],
    ['(?<!a)b', 'negative lookbehind `(?<!…)` is not supported'],
  ])('%s', (source, reason) => {
    const result = compileMatcher(source);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining(reason),
      fix: expect.stringContaining('RE2 syntax'),
    });
  });

  test('inside a class or escaped, the same characters are literal and accepted', () => {
    expect(compiled('[(?=]x').test('=x')).toBe(true);
    expect(compiled('\\(\\?=').test('(?=')).toBe(true);
    expect(compileMatcher('[\\1]')).toMatchObject({ ok: false, error: 'invalid escape sequence: `\\1`' });
  });

  test("other syntax errors keep RE2's own words", () => {
    expect(compileMatcher('agent([')).toMatchObject({ ok: false, error: 'missing closing ]: `[`' });
    expect(compileMatcher('\\u0041')).toMatchObject({
      ok: false,
      error: expect.stringContaining('invalid escape sequence'),
    });
  });
});

describe('literal patterns take string tests that answer as RE2 does', () => {
  test.each([
    ['deploy', [{ text: 'deploy', start: false, end: false }]],
    ['^Bash$', [{ text: 'Bash', start: true, end: true }]],
    [
      '^build|test$|lint',
      [
        { text: 'build', start: true, end: false },
        { text: 'test', start: false, end: true },
        { text: 'lint', start: false, end: false },
      ],
    ],
    [
      '^(build|test)$',
      [
        { text: 'build', start: true, end: true },
        { text: 'test', start: true, end: true },
      ],
    ],
    [
      '(?:a|b)$',
      [
        { text: 'a', start: false, end: true },
        { text: 'b', start: false, end: true },
      ],
    ],
    ['^mcp__a\\.b\\(c\\)$', [{ text: 'mcp__a.b(c)', start: true, end: true }]],
    ['^$', [{ text: '', start: true, end: true }]],
  ])('%s is literal', (source, expected) => {
    expect(literalAlternatives(source)).toEqual(expected);
  });

  test.each(['a.b', 'a+', '^a|(b)', '\\d', '^(a)|(b)$', '[ab]', 'a{2}', '(?i)a', 'a\\\\$', 'x(a|b)'])(
    '%s is not',
    (source) => {
      expect(literalAlternatives(source)).toBeUndefined();
    },
  );

  test('on every probe, a literal pattern answers what RE2 answers', () => {
    const patterns = [
      'deploy',
      '^Bash$',
      '^build|test$|lint',
      '^(build|test)$',
      '(?:a|b)$',
      '^$',
      '^',
      '$',
      'a||b',
      '^mcp\\.x$',
      'é$',
      '^\\^\\$',
    ];
    const probes = [
      '',
      'deploy',
      'pre-deploy-1',
      'Bash',
      'BashOutput',
      'build',
      'rebuild',
      'testing',
      'unit-test',
      'lint',
      'b',
      'xa',
      'mcp.x',
      'mcpXx',
      'café',
      '^$',
      'x^$',
    ];
    for (const source of patterns) {
      const re2 = RE2JS.compile(source);
      for (const probe of probes)
        expect([source, probe, compiled(source).test(probe)]).toEqual([source, probe, re2.test(probe)]);
    }
  });
});

test('matching is unanchored and RE2 syntax works: classes, repeats, inline flags', () => {
  expect(compiled('gent').test('agent-1')).toBe(true);
  expect(compiled('^stage_\\d{2,}$').test('stage_42')).toBe(true);
  expect(compiled('^stage_\\d{2,}$').test('stage_4')).toBe(false);
  expect(compiled('(?i)^AGENT').test('agent')).toBe(true);
  expect(compiled('(?P<kind>build|test)-\\w+').test('ci-test-unit')).toBe(true);
});
