import { RE2JS } from 're2js';
import type { CompiledMatcher, Matcher } from './matcher.ts';
import { linearNativeRegExp, linearSearchTree } from './linear-native-regexp.ts';
import { literalAlternatives } from './literal-alternatives.ts';
import { parseRe2Subset, type PatternNode } from './re2-syntax-tree.ts';
import { unsupportedConstruct } from './unsupported-construct.ts';

/**
 * The longest text a lookaround matcher is tried against, in UTF-16 code units: a longer context
 * value is tried by its first 1 024. Matchers see short strings — tool names, a session's source —
 * and the cap bounds what any accepted pattern can cost, whatever a host sends.
 */
export const MATCHER_INPUT_LIMIT = 1024;

const FIX =
  'keep lookaround simple: its body and the pattern around it must each be free of nested or overlapping repeats such as (a+)+ or (a|a)*, and lookaround may not nest';

const OPENINGS: ReadonlyArray<readonly [string, boolean]> = [
  ['(?<=', true],
  ['(?<!', true],
  ['(?=', false],
  ['(?!', false],
];

/** One lookaround group of a pattern: where it stands and what it looks for. */
interface Lookaround {
  readonly start: number;
  /** Just past its closing parenthesis. */
  readonly end: number;
  readonly behind: boolean;
  readonly body: string;
}

/**
 * A matcher with lookaround (`^(?!Read).*`, `(?<!mcp__)Bash`), as a host that reads matchers as
 * JavaScript regular expressions (Claude Code) accepts them, or `undefined` when the pattern has no
 * lookaround. Lookaround needs a backtracking engine, so it is accepted only where that engine
 * provably runs in linear time: the pattern with its lookaround groups left out, and each group's
 * body (anchored where the engine tries it; a lookbehind's read backwards), must pass the same proof
 * as every native matcher ({@link linearNativeRegExp}); lookaround may not nest or be repeated, and
 * backreferences stay refused. Each try then costs at most the text's length per lookaround, and the
 * text is cut at {@link MATCHER_INPUT_LIMIT}: `(?=(a+)+)b` is refused at load, `^(?!Read).*` runs.
 */
export function compileLookaroundMatcher(source: string): CompiledMatcher | undefined {
  const found = findLookarounds(source);
  if (found === undefined) return undefined;
  if (typeof found === 'string') return { ok: false, error: found, fix: FIX };
  let native: RegExp;
  try {
    // No flags, as Claude Code compiles a matcher.
    native = new RegExp(source);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), fix: FIX };
  }
  let surroundings = '';
  let at = 0;
  for (const group of found) {
    surroundings += source.slice(at, group.start);
    at = group.end;
  }
  surroundings += source.slice(at);
  const outside = linearProblem(surroundings, 'the pattern around its lookaround');
  if (outside !== undefined) return { ok: false, error: outside, fix: FIX };
  for (const group of found) {
    const inside = linearProblem(
      group.body,
      `lookaround body \`${group.body}\``,
      group.behind ? 'backwards' : 'forwards',
    );
    if (inside !== undefined) return { ok: false, error: inside, fix: FIX };
  }
  return { ok: true, pattern: new CappedPattern(source, native) };
}

// Why `pattern` (a part of the matcher) is not provably linear, or `undefined` when it is. `whole`
// parts are searched like a matcher; lookaround bodies are tried anchored at one position, in the
// direction the engine reads them.
function linearProblem(pattern: string, what: string, anchoredReading?: 'forwards' | 'backwards'): string | undefined {
  const backreference = unsupportedConstruct(pattern);
  if (backreference !== undefined) return `${what}: ${backreference}`;
  try {
    RE2JS.compile(pattern);
  } catch (error) {
    return `${what} is not a supported regular expression: ${error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error)}`;
  }
  const unproven = `${what} cannot be proven to match in linear time (nested or overlapping repeats, or a construct outside the checked subset)`;
  if (anchoredReading === undefined)
    return literalAlternatives(pattern) !== undefined || linearNativeRegExp(pattern) !== undefined
      ? undefined
      : unproven;
  const parsed = parseRe2Subset(pattern);
  if (parsed === undefined) return unproven;
  const read = anchoredReading === 'forwards' ? parsed : reversed(parsed);
  return linearSearchTree({ kind: 'concat', items: [{ kind: 'assert', text: '^' }, read] }) !== undefined ||
    scansForBoundedRest(read)
    ? undefined
    : unproven;
}

/**
 * `.*Read` (as in `^(?!.*Read)`): a leading unbounded repeat of one character set, then a rest that
 * is searched in linear time with a bounded span. Tried at one position, the engine backs off the
 * repeat one character at a time and tries the bounded rest at each: at most the text's length
 * times the rest's span.
 */
function scansForBoundedRest(node: PatternNode): boolean {
  if (node.kind !== 'concat' || node.items.length < 2) return false;
  const [first, ...rest] = node.items;
  if (first?.kind !== 'repeat' || first.body.kind !== 'set' || first.max !== Infinity) return false;
  const tail: PatternNode = rest.length === 1 ? rest[0]! : { kind: 'concat', items: rest };
  return linearSearchTree(tail) !== undefined && !startsUnbounded(tail) && !endsUnbounded(tail);
}

function startsUnbounded(node: PatternNode): boolean {
  const first = node.kind === 'concat' ? node.items[0] : node;
  return first?.kind === 'repeat' && first.max === Infinity;
}

function endsUnbounded(node: PatternNode): boolean {
  const last = node.kind === 'concat' ? node.items.at(-1) : node;
  return last?.kind === 'repeat' && last.max === Infinity;
}

// The pattern read from its end: what a lookbehind's body is to the engine that tries it.
function reversed(node: PatternNode): PatternNode {
  switch (node.kind) {
    case 'set':
      return node;
    case 'assert':
      return node.text === '^'
        ? { kind: 'assert', text: '$' }
        : node.text === '$'
          ? { kind: 'assert', text: '^' }
          : node;
    case 'concat':
      return { kind: 'concat', items: [...node.items].reverse().map(reversed) };
    case 'alt':
      return { kind: 'alt', items: node.items.map(reversed) };
    case 'repeat':
      return { ...node, body: reversed(node.body) };
  }
}

/**
 * The lookaround groups of `source`, in order; `undefined` when it has none; a message when one
 * cannot be accepted (nested, repeated, or unclosed). Escapes and character classes are skipped.
 */
function findLookarounds(source: string): readonly Lookaround[] | string | undefined {
  const groups: Lookaround[] = [];
  let after = -1;
  for (const index of groupParentheses(source)) {
    // A found group's own parentheses are its body's; a `)` opens nothing.
    if (index <= after || source[index] === ')') continue;
    const opening = OPENINGS.find(([text]) => source.startsWith(text, index));
    if (opening === undefined) continue;
    const close = closingParenthesis(source, index);
    if (close === undefined) return 'a lookaround group is not closed';
    const body = source.slice(index + opening[0].length, close);
    if (OPENINGS.some(([text]) => body.includes(text))) return 'lookaround inside lookaround is not supported';
    if (/^[*+?{]/.test(source.slice(close + 1))) return 'a repeated lookaround group is not supported';
    groups.push({ start: index, end: close + 1, behind: opening[1], body });
    after = close;
  }
  return groups.length === 0 ? undefined : groups;
}

function closingParenthesis(source: string, open: number): number | undefined {
  let depth = 0;
  for (const index of groupParentheses(source, open)) {
    if (source[index] === '(') depth++;
    else if (--depth === 0) return index;
  }
  return undefined;
}

/** The positions of the `(` and `)` of `source`, from `from` on, that are syntax: not escaped, not in a character class. */
function* groupParentheses(source: string, from = 0): Generator<number> {
  let inClass = false;
  for (let index = from; index < source.length; index++) {
    const character = source[index]!;
    if (character === '\\') index++;
    else if (inClass) inClass = character !== ']';
    else if (character === '[') {
      inClass = true;
      if (source[index + 1] === '^') index++;
      if (source[index + 1] === ']') index++;
    } else if (character === '(' || character === ')') yield index;
  }
}

// The RegExp sits in a private field, so two matchers of one source compare equal. No `g` or `y` flag:
// `test` keeps no lastIndex state.
class CappedPattern implements Matcher {
  readonly source: string;
  readonly #native: RegExp;

  constructor(source: string, native: RegExp) {
    this.source = source;
    this.#native = native;
  }

  test(text: string): boolean {
    return this.#native.test(text.length > MATCHER_INPUT_LIMIT ? text.slice(0, MATCHER_INPUT_LIMIT) : text);
  }
}
