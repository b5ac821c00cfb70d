import { parseRe2Subset, type CodePointRanges, type PatternNode } from './re2-syntax-tree.ts';

/**
 * A native `RegExp` that answers `test` exactly as RE2 answers it for `source`, and that a
 * backtracking engine provably runs in time linear in the input; `undefined` when `source` is outside
 * what this can prove (it then stays on RE2). Call it only with a pattern RE2 accepted.
 *
 * The proof, on the pattern's Glushkov automaton (one state per character set in the pattern):
 * - every state's successors have pairwise disjoint character sets, and no successor is reachable by
 *   two routes through the pattern (which rules out `(a+)+`, `(a|a)*`, `a*a*`, a nullable loop body or
 *   two empty alternatives): at every input position at most one branch of the backtracking search
 *   survives the next character, so one attempt visits each position once, at a cost bounded by the
 *   pattern's size. Assertions (`^`, `$`, `\b`) only prune that search.
 * - the search makes one attempt (the pattern starts with `^` on every route), or an attempt spans a
 *   bounded number of characters: no unbounded repeat once a trailing `x+` or `x*`, and a leading
 *   one, is cut to `x` or nothing — which does not change whether there is a match.
 */
export function linearNativeRegExp(source: string): RegExp | undefined {
  const parsed = parseRe2Subset(source);
  if (parsed === undefined) return undefined;
  const node = linearSearchTree(parsed);
  if (node === undefined) return undefined;
  try {
    // `u`: the input is read by code point, as RE2 reads it; every set is spelled out, so no other flag is needed.
    return new RegExp(javascriptSource(node), 'u');
  } catch {
    return undefined;
  }
}

/**
 * The tree a backtracking engine provably searches in linear time for `parsed` (see
 * {@link linearNativeRegExp}: unbounded ends cut when the search is not anchored), or `undefined`
 * when that cannot be proven.
 */
export function linearSearchTree(parsed: PatternNode): PatternNode | undefined {
  const automaton = glushkov(parsed);
  if (!automaton?.deterministic()) return undefined;
  if (automaton.shape.anchored) return parsed;
  const node = trimUnboundedEnds(parsed);
  return (glushkov(node)?.shape.longest ?? Infinity) === Infinity ? undefined : node;
}

/**
 * For a search that is not anchored at the start, `x{n,}` at either end of the pattern matches
 * somewhere exactly when `x{n}` does, and the latter's attempts are bounded.
 */
function trimUnboundedEnds(node: PatternNode): PatternNode {
  const items = node.kind === 'concat' ? [...node.items] : [node];
  const cut = (item: PatternNode | undefined): PatternNode[] | undefined => {
    if (item?.kind !== 'repeat' || item.max !== Infinity) return undefined;
    return item.min === 0 ? [] : [{ ...item, max: item.min }];
  };
  items.splice(-1, 1, ...(cut(items.at(-1)) ?? items.slice(-1)));
  items.splice(0, 1, ...(cut(items[0]) ?? items.slice(0, 1)));
  return items.length === 1 ? items[0]! : { kind: 'concat', items };
}

interface Shape {
  /** How many routes match the empty string (a second one doubles the search: refused). */
  readonly empty: number;
  readonly first: readonly number[];
  readonly last: readonly number[];
  /** Every route passes `^` before it reads a character. */
  readonly anchored: boolean;
  /** The most characters a match can span. */
  readonly longest: number;
}

// Thrown while building the automaton when a route is ambiguous.
const AMBIGUOUS = Symbol('ambiguous');

function glushkov(root: PatternNode): { readonly shape: Shape; deterministic(): boolean } | undefined {
  const automaton: Automaton = { sets: [], follow: [] };
  let shape: Shape;
  try {
    shape = visit(automaton, root);
  } catch (error) {
    if (error === AMBIGUOUS) return undefined;
    throw error;
  }
  const { sets, follow } = automaton;
  return {
    shape,
    deterministic: () =>
      [shape.first, ...follow.map((next) => [...next])].every((states) =>
        pairwiseDisjoint(states.map((state) => sets[state]!)),
      ),
  };
}

/** The automaton as it is built: one state per character set, numbered in pattern order. */
interface Automaton {
  /** Each state's character set. */
  readonly sets: CodePointRanges[];
  /** Each state's successors. */
  readonly follow: Array<Set<number>>;
}

/** Adds a transition from every state of `from` to every state of `to`; a second route to one is ambiguous. */
function link(automaton: Automaton, from: readonly number[], to: readonly number[]): void {
  for (const state of from) {
    for (const next of to) {
      if (automaton.follow[state]!.has(next)) throw AMBIGUOUS;
      automaton.follow[state]!.add(next);
    }
  }
}

/** Adds the states of `node` to the automaton, linking those within it; returns its shape. */
function visit(automaton: Automaton, node: PatternNode): Shape {
  switch (node.kind) {
    case 'set': {
      const { sets, follow } = automaton;
      follow.push(new Set());
      return { empty: 0, first: [sets.push(node.ranges) - 1], last: [sets.length - 1], anchored: false, longest: 1 };
    }
    case 'assert':
      return { empty: 1, first: [], last: [], anchored: node.text === '^', longest: 0 };
    case 'concat':
      return visitConcat(automaton, node.items);
    case 'alt':
      return visitAlt(automaton, node.items);
    case 'repeat':
      return visitRepeat(automaton, node);
  }
}

function visitConcat(automaton: Automaton, items: readonly PatternNode[]): Shape {
  let shape: Shape = { empty: 1, first: [], last: [], anchored: false, longest: 0 };
  items.forEach((item, index) => {
    const next = visit(automaton, item);
    link(automaton, shape.last, next.first);
    shape = {
      empty: shape.empty * next.empty,
      first: shape.empty > 0 ? [...shape.first, ...next.first] : shape.first,
      last: next.empty > 0 ? [...next.last, ...shape.last] : next.last,
      anchored: index === 0 ? next.anchored : shape.anchored,
      longest: shape.longest + next.longest,
    };
  });
  return shape;
}

function visitAlt(automaton: Automaton, items: readonly PatternNode[]): Shape {
  const shapes = items.map((item) => visit(automaton, item));
  const empty = shapes.reduce((sum, shape) => sum + shape.empty, 0);
  if (empty > 1) throw AMBIGUOUS;
  return {
    empty,
    first: shapes.flatMap((shape) => shape.first),
    last: shapes.flatMap((shape) => shape.last),
    anchored: shapes.every((shape) => shape.anchored),
    longest: Math.max(...shapes.map((shape) => shape.longest)),
  };
}

function visitRepeat(automaton: Automaton, node: Extract<PatternNode, { kind: 'repeat' }>): Shape {
  const body = visit(automaton, node.body);
  if (node.max === 0) return { empty: 1, first: [], last: [], anchored: false, longest: 0 };
  const empty = node.min === 0 ? 1 + body.empty : body.empty;
  if (empty > 1) throw AMBIGUOUS;
  if (node.max > 1) {
    // A loop: its body must consume, and the way back to its start is one more route.
    if (body.empty > 0) throw AMBIGUOUS;
    link(automaton, body.last, body.first);
  }
  return {
    empty,
    first: body.first,
    last: body.last,
    anchored: node.min > 0 && body.anchored,
    longest: body.longest * node.max,
  };
}

function pairwiseDisjoint(sets: readonly CodePointRanges[]): boolean {
  const ranges = sets.flat().sort((a, b) => a[0] - b[0]);
  return ranges.every((range, index) => index === 0 || ranges[index - 1]![1] < range[0]);
}

/** The JavaScript spelling (flag `u`) of `node`: every set as explicit code points, groups non-capturing. */
function javascriptSource(node: PatternNode): string {
  switch (node.kind) {
    case 'set':
      return node.ranges.length === 1 && node.ranges[0]![0] === node.ranges[0]![1]
        ? codePoint(node.ranges[0]![0])
        : `[${node.ranges.map(([from, to]) => (from === to ? codePoint(from) : `${codePoint(from)}-${codePoint(to)}`)).join('')}]`;
    case 'assert':
      return node.text;
    case 'concat':
      return node.items
        .map((item) => (item.kind === 'alt' ? `(?:${javascriptSource(item)})` : javascriptSource(item)))
        .join('');
    case 'alt':
      return node.items.map(javascriptSource).join('|');
    case 'repeat': {
      const count = node.max === Infinity ? `{${node.min},}` : `{${node.min},${node.max}}`;
      return `(?:${javascriptSource(node.body)})${count}`;
    }
  }
}

function codePoint(point: number): string {
  return /[0-9A-Za-z_]/.test(String.fromCodePoint(point)) ? String.fromCodePoint(point) : `\\u{${point.toString(16)}}`;
}
