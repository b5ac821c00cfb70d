/** Inclusive ranges of code points, sorted and disjoint. */
export type CodePointRanges = ReadonlyArray<readonly [number, number]>;

/** A pattern as far as matching goes (captures, names and greediness dropped: `test` answers the same without them). */
export type PatternNode =
  | { readonly kind: 'set'; readonly ranges: CodePointRanges }
  | { readonly kind: 'assert'; readonly text: '^' | '$' | '\\b' | '\\B' }
  | { readonly kind: 'concat'; readonly items: readonly PatternNode[] }
  | { readonly kind: 'alt'; readonly items: readonly PatternNode[] }
  | { readonly kind: 'repeat'; readonly body: PatternNode; readonly min: number; readonly max: number };

const MAX_CODE_POINT = 0x10ffff;
const DIGIT: CodePointRanges = [[0x30, 0x39]];
const WORD: CodePointRanges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// RE2's \s is Perl's ASCII set, without \v — not JavaScript's Unicode-wide \s.
const SPACE: CodePointRanges = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { a: 0x07, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
const CLASS_ESCAPES: Readonly<Record<string, CodePointRanges>> = { d: DIGIT, w: WORD, s: SPACE };
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

// Thrown inside the parser for anything outside the subset it reads; caught at the top.
const OUTSIDE = Symbol('outside the subset');

/**
 * Reads a pattern RE2 has already accepted into a {@link PatternNode}, or answers `undefined` when it
 * uses anything outside the subset read here: flags other than a leading `(?i)` (which folds ASCII
 * letters, `k` and `s` to RE2's case orbits, e.g. `k`, `K` and the Kelvin sign, and keeps any
 * other letter out of the subset), Unicode and POSIX classes (`\pL`,
 * `[[:alpha:]]`), octal and `\Q…\E` escapes, `\C`, and a `{` that is not a repeat. The subset is the
 * one whose meaning this module pins down itself (`.` excludes only `\n`, `\s` is ASCII, classes are
 * code point ranges), so a translation of it never depends on how JavaScript reads the same text.
 */
export function parseRe2Subset(source: string): PatternNode | undefined {
  const parser = new SubsetParser(source);
  try {
    const node = parser.alternation();
    return parser.done() ? node : undefined;
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  }
}

class SubsetParser {
  readonly #chars: string[];
  readonly #fold: boolean;
  #at = 0;

  constructor(source: string) {
    // By code point, as RE2 reads it (an astral character is one literal).
    this.#chars = [...source];
    this.#fold = source.startsWith('(?i)');
    if (this.#fold) this.#at = 4;
  }

  done(): boolean {
    return this.#at === this.#chars.length;
  }

  alternation(): PatternNode {
    const items = [this.#concatenation()];
    while (this.#peek() === '|') {
      this.#at++;
      items.push(this.#concatenation());
    }
    return items.length === 1 ? items[0]! : { kind: 'alt', items };
  }

  #concatenation(): PatternNode {
    const items: PatternNode[] = [];
    for (let next = this.#peek(); next !== undefined && next !== '|' && next !== ')'; next = this.#peek())
      items.push(this.#repeated(this.#atom()));
    return items.length === 1 ? items[0]! : { kind: 'concat', items };
  }

  #repeated(body: PatternNode): PatternNode {
    const operator = this.#peek();
    let min: number;
    let max: number;
    if (operator === '*' || operator === '+' || operator === '?') {
      this.#at++;
      [min, max] = operator === '*' ? [0, Infinity] : operator === '+' ? [1, Infinity] : [0, 1];
    } else if (operator === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.#chars.slice(this.#at, this.#at + 12).join(''));
      if (counted === null) throw OUTSIDE;
      this.#at += counted[0].length;
      min = Number(counted[1]);
      max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
    } else {
      return body;
    }
    // Laziness changes which match is found, never whether there is one.
    if (this.#peek() === '?') this.#at++;
    if (['*', '+', '?', '{'].includes(this.#peek() ?? '')) throw OUTSIDE;
    return { kind: 'repeat', body, min, max };
  }

  #atom(): PatternNode {
    const character = this.#take();
    switch (character) {
      case '(': {
        if (this.#peek() === '?') this.#groupPrefix();
        const inner = this.alternation();
        if (this.#take() !== ')') throw OUTSIDE;
        return inner;
      }
      case '[':
        return { kind: 'set', ranges: this.#characterClass() };
      case '.':
        // Closed under case folding already.
        return {
          kind: 'set',
          ranges: [
            [0, 0x09],
            [0x0b, MAX_CODE_POINT],
          ],
        };
      case '^':
      case '$':
        return { kind: 'assert', text: character };
      case '\\':
        return this.#escape(false);
      case '*':
      case '+':
      case '?':
      case '{':
        throw OUTSIDE;
      default:
        return { kind: 'set', ranges: this.#folded(single(character)) };
    }
  }

  // Under `(?i)`, a set as RE2 folds it: every case of its letters, before any negation.
  #folded(ranges: CodePointRanges): CodePointRanges {
    return this.#fold ? caseFolded(ranges) : ranges;
  }

  // `(?:`, `(?P<name>` and `(?<name>` only: inline flags change what the pattern means.
  #groupPrefix(): void {
    const rest = this.#chars.slice(this.#at, this.#at + 3).join('');
    if (rest.startsWith('?:')) {
      this.#at += 2;
      return;
    }
    if (!rest.startsWith('?P<') && !rest.startsWith('?<')) throw OUTSIDE;
    const close = this.#chars.indexOf('>', this.#at);
    if (close < 0) throw OUTSIDE;
    this.#at = close + 1;
  }

  #characterClass(): CodePointRanges {
    const negated = this.#peek() === '^';
    if (negated) this.#at++;
    const ranges: Array<[number, number]> = [];
    for (let first = true; first || this.#peek() !== ']'; first = false) {
      const character = this.#take();
      if (character === '[' && this.#peek() === ':') throw OUTSIDE;
      if (character === '-' && !first && this.#peek() !== ']') throw OUTSIDE;
      const low = character === '\\' ? this.#escape(true) : { kind: 'set' as const, ranges: single(character) };
      if (low.kind !== 'set') throw OUTSIDE;
      if (this.#peek() === '-' && this.#chars[this.#at + 1] !== ']' && this.#chars[this.#at + 1] !== undefined) {
        this.#at++;
        const upperText = this.#take();
        const high = upperText === '\\' ? this.#escape(true) : { kind: 'set' as const, ranges: single(upperText) };
        if (high.kind !== 'set' || !isOne(low.ranges) || !isOne(high.ranges)) throw OUTSIDE;
        ranges.push([low.ranges[0]![0], high.ranges[0]![0]]);
      } else {
        ranges.push(...low.ranges.map(([from, to]): [number, number] => [from, to]));
      }
    }
    this.#at++;
    const merged = this.#folded(normalize(ranges));
    return negated ? complement(merged) : merged;
  }

  #escape(inClass: boolean): PatternNode {
    const letter = this.#take();
    const lower = letter.toLowerCase();
    if (lower in CLASS_ESCAPES) {
      const ranges = this.#folded(CLASS_ESCAPES[lower]!);
      return { kind: 'set', ranges: letter === lower ? ranges : complement(ranges) };
    }
    if (letter in CONTROL_ESCAPES)
      return { kind: 'set', ranges: [[CONTROL_ESCAPES[letter]!, CONTROL_ESCAPES[letter]!]] };
    if (letter === 'x') return { kind: 'set', ranges: this.#folded(single(String.fromCodePoint(this.#hex()))) };
    if (PUNCTUATION.test(letter)) return { kind: 'set', ranges: single(letter) };
    if (!inClass && (letter === 'b' || letter === 'B')) return { kind: 'assert', text: `\\${letter}` };
    // Without the multi-line flag, \A and \z are ^ and $.
    if (!inClass && letter === 'A') return { kind: 'assert', text: '^' };
    if (!inClass && letter === 'z') return { kind: 'assert', text: '$' };
    throw OUTSIDE;
  }

  // `\xHH` or `\x{H…}`.
  #hex(): number {
    const rest = this.#chars.slice(this.#at, this.#at + 10).join('');
    const written = /^(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(rest);
    if (written === null) throw OUTSIDE;
    this.#at += written[0].length;
    const value = Number.parseInt(written[1] ?? written[2]!, 16);
    if (value > MAX_CODE_POINT) throw OUTSIDE;
    return value;
  }

  #peek(): string | undefined {
    return this.#chars[this.#at];
  }

  #take(): string {
    const character = this.#chars[this.#at++];
    if (character === undefined) throw OUTSIDE;
    return character;
  }
}

function single(character: string): CodePointRanges {
  const point = character.codePointAt(0)!;
  return [[point, point]];
}

function isOne(ranges: CodePointRanges): boolean {
  return ranges.length === 1 && ranges[0]![0] === ranges[0]![1];
}

/**
 * ASCII `ranges` with every case of their letters, as RE2's case orbits have them: `k` also has the
 * Kelvin sign (U+212A) and `s` the long s (U+017F). Outside ASCII, folding is not spelled out here.
 */
function caseFolded(ranges: CodePointRanges): CodePointRanges {
  if (ranges.some(([, to]) => to >= 0x80)) throw OUTSIDE;
  const added: Array<[number, number]> = [];
  for (const [from, to] of ranges) {
    for (const [low, high, shift] of [
      [0x41, 0x5a, 0x20],
      [0x61, 0x7a, -0x20],
    ] as const) {
      if (Math.max(from, low) <= Math.min(to, high))
        added.push([Math.max(from, low) + shift, Math.min(to, high) + shift]);
    }
  }
  const letters = normalize([...ranges, ...added]);
  const has = (point: number): boolean => letters.some(([from, to]) => from <= point && point <= to);
  if (has(0x6b)) added.push([0x212a, 0x212a]);
  if (has(0x73)) added.push([0x17f, 0x17f]);
  return normalize([...ranges, ...added]);
}

/** `ranges` sorted, with overlapping and adjacent ones merged. */
function normalize(ranges: ReadonlyArray<readonly [number, number]>): CodePointRanges {
  const merged: Array<[number, number]> = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Every code point `ranges` leave out. */
function complement(ranges: CodePointRanges): CodePointRanges {
  const result: Array<[number, number]> = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) result.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}
