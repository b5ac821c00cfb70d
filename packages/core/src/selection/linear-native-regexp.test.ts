import { RE2JS } from 're2js';
import { describe, expect, test } from 'vitest';
import { compileMatcher } from './compile-matcher.ts';
import { linearNativeRegExp } from './linear-native-regexp.ts';

// Characters where JavaScript and RE2 read the same pattern text differently: line terminators other
// than \n (`.`), Unicode spaces and \v (`\s`), non-ASCII letters and digits (`\w`, `\d`, `\b`), case
// folds (`ſ`, the Kelvin sign), astral characters and lone surrogates (code units or code points).
const TRICKY = [
  'K',
  'k',
  's',
  'S',
  'É',
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '\v',
  '\f',
  '\t',
  ' ',
  '\u00a0',
  '\u3000',
  'é',
  'ſ',
  '\u212a',
  '٣',
  '😀',
  '\ud83d',
  '\ude00',
  '\0',
  '-',
  '_',
  '.',
  '{',
  '}',
  '$',
  '^',
];

// A deterministic generator, so a failure names a reproducible case.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function expectSameAnswers(source: string, inputs: readonly string[]): void {
  const compiled = compileMatcher(source);
  if (!compiled.ok) throw new Error(`${source}: ${compiled.error}`);
  const re2 = RE2JS.compile(source);
  for (const input of inputs)
    expect([source, input, compiled.pattern.test(input)]).toEqual([source, input, re2.test(input)]);
}

/** Inputs for `source`: the tricky characters and strings made of its own characters. */
function inputsFor(source: string, next: () => number, count: number): string[] {
  const alphabet = [...new Set([...source, ...TRICKY, 'a', 'b', 'x', '0', '9', 'A', 'Z'])];
  const inputs = ['', ...TRICKY, source, `${source}\n`, `x${source}x`];
  for (let index = 0; index < count; index++) {
    const length = Math.floor(next() * 12);
    inputs.push(Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]!).join(''));
  }
  return inputs;
}

describe('the native fast path answers as RE2 does', () => {
  const written = [
    '^stage_\\d+$',
    '^mcp__.*',
    '(?:^|-)prod$',
    '^[a-z]+-(agent|review)$',
    'test_\\d+',
    '\\d+x\\d+',
    '^.$',
    '^..$',
    '^[^a]$',
    '^[^\\n]+$',
    '^\\s$',
    '^\\S+$',
    '^\\w+$',
    '^\\W$',
    '\\bab\\b',
    '\\Bb',
    '\\Aab\\z',
    '^\\x{1F600}$',
    '^\\x41\\x{42}$',
    '^😀+$',
    '^[😀-😂]$',
    '^[]a]$',
    '^[^]a]$',
    '^[a-]$',
    '^[-a]$',
    '^[\\]\\-]+$',
    '^\\v$',
    '^\\a?b$',
    '^(?P<kind>build|test)-\\w+$',
    '^(?<n>x)y$',
    '^a{2,4}$',
    '^a{3}$',
    '^(?:ab){2,}$',
    '^a+?b*?$',
    '^[\\d_]+$',
    '^[\\D]$',
    '^\\.$',
    '^a|b$',
    '^$',
    '^',
    '$',
    '(?:)',
    'a{0}b',
    '^(?:a|)b$',
    'x$',
    '^[\\x00-\\x{10FFFF}]$',
    '^[^\\x00-\\x{10FFFF}]',
    '^\\$\\^$',
    'é+$',
    '^[é-ü]+$',
    '^a\\.b\\*c$',
    '(?i)^bash$',
    '(?i)deploy',
    '(?i)^[a-k]+$',
    '(?i)^[^s]$',
    '(?i)^\\w+$',
    '(?i)^\\W$',
    '(?i)^\\x4B$',
    '(?i)^k.s$',
    '(?i)^[^\\d]$',
  ];
  test.each(written)('%s', (source) => {
    expect(linearNativeRegExp(source), `${source} takes the native path`).toBeDefined();
    expectSameAnswers(source, inputsFor(source, random(source.length), 300));
  });

  test('on 1,000 random patterns, whichever path each takes', { timeout: 120_000 }, () => {
    const next = random(12);
    const pick = <T>(options: readonly T[]): T => options[Math.floor(next() * options.length)]!;
    const atoms = [
      'a',
      'b',
      'k',
      'S',
      '-',
      '.',
      '\\d',
      '\\w',
      '\\W',
      '\\s',
      '\\S',
      '[ab]',
      '[^a]',
      '[a-c]',
      '[^k]',
      '\\x{e9}',
      '😀',
      '\\.',
      '^',
      '$',
      '\\b',
    ];
    const pattern = (depth: number): string => {
      const parts = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
        const atom = depth > 0 && next() < 0.3 ? `(${pattern(depth - 1)})` : pick(atoms);
        return atom + (next() < 0.4 ? pick(['*', '+', '?', '{2}', '{1,3}', '{2,}', '*?']) : '');
      });
      return next() < 0.2 ? `${parts.join('')}|${pick(atoms)}` : parts.join('');
    };
    const flagged = (): string => (next() < 0.2 ? `(?i)${pattern(2)}` : pattern(2));
    let native = 0;
    for (let index = 0; index < 1_000; index++) {
      const source = flagged();
      if (!compileMatcher(source).ok) continue;
      if (linearNativeRegExp(source) !== undefined) native++;
      expectSameAnswers(source, inputsFor(source, next, 20));
    }
    // The corpus exercises the fast path, not only RE2.
    expect(native).toBeGreaterThan(150);
  });
});

describe('patterns a backtracking engine cannot run in linear time stay on RE2', () => {
  test.each([
    ['(a+)+$', `${'a'.repeat(5_000)}!`],
    ['(a|aa)*b', 'a'.repeat(5_000)],
    ['(x+x+)+y', 'x'.repeat(5_000)],
    ['^(\\w+\\s?)*$', `${'word '.repeat(2_000)}!`],
    ['a*a*$', `${'a'.repeat(5_000)}!`],
    ['^(a|ab)(c|bcd)(d*)$', `ab${'d'.repeat(5_000)}!`],
    ['^(a?){30}a{30}$', 'a'.repeat(30)],
    ['^.*.*=.*$', `${'x'.repeat(5_000)}\n`],
    ['^(?:a|a)*$', `${'a'.repeat(5_000)}!`],
    ['^(?:|a)*$', `${'a'.repeat(5_000)}!`],
    ['^(?:a?|b?)c$', 'c'],
    // Unanchored with an unbounded middle: one attempt per start position, each to the end.
    ['a\\d*b', 'a'.repeat(5_000)],
    ['gent.*review', 'gent'.repeat(2_000)],
  ])('%s', (source, text) => {
    expect(linearNativeRegExp(source)).toBeUndefined();
    expectSameAnswers(source, [text, 'aab', 'ab', 'c']);
  });

  test.each([
    '(?i)é',
    '(?i)[é]',
    'a(?i)b',
    '(?i:a)',
    '(?s)a.b',
    '(?m)^a$',
    '\\pL',
    '\\p{Greek}',
    '[[:alpha:]]',
    '\\Qa.b\\E',
    'a\\123',
    'a{,2}',
    'x{',
  ])('%s: syntax read differently elsewhere stays on RE2', (source) => {
    expect(compileMatcher(source).ok).toBe(true);
    expect(linearNativeRegExp(source)).toBeUndefined();
  });
});

test("an input long enough to overflow the native engine's stack gets RE2's answer", { timeout: 120_000 }, () => {
  // V8 throws a RangeError after linear work (about 8 million characters here); the matcher then asks RE2.
  const source = '^(?:a|b)+$';
  const text = 'a'.repeat(9_000_000);
  expect(() => linearNativeRegExp(source)!.test(`${text}!`)).toThrow(RangeError);
  const matcher = compileMatcher(source);
  expect(matcher.ok && matcher.pattern.test(`${text}!`)).toBe(false);
  expect(matcher.ok && matcher.pattern.test(`${text}b`)).toBe(true);
});
