import { RE2JS } from 're2js';
import { escapePattern } from './exact-matcher.ts';
import { literalAlternatives } from './literal-alternatives.ts';
import { unsupportedConstruct } from './unsupported-construct.ts';

/** A compiled matcher: tests a context field's text in time linear in the text's length. */
export interface Matcher {
  /** The pattern as written in the config. */
  readonly source: string;
  /** Whether the pattern matches anywhere in `text` (matching is unanchored). */
  test(text: string): boolean;
}

/** A matcher compiled once at load, or why its pattern is refused and how to fix it. */
export type CompiledMatcher = { readonly ok: true; readonly pattern: Matcher } | { readonly ok: false; readonly error: string; readonly fix: string };

const FIX = 'fix the pattern: matchers use RE2 syntax (like Go and Arc), unanchored, without backreferences or lookaround';

/**
 * Compiles a hook's `matcher` with RE2 semantics, unanchored (write `^agent$` to match exactly). RE2
 * matches in time linear in the input, so no pattern can stall the engine the way a backtracking
 * engine stalls on `(a+)+$`; the price is that backreferences and lookaround, which need
 * backtracking, are refused at load. A pattern made only of literal alternatives (`deploy`,
 * `^Bash$`, `^(build|test)$`) runs on the native RegExp engine instead: without quantifiers it cannot
 * backtrack more than the pattern's length at each position, and it answers as RE2 would.
 */
export function compileMatcher(source: string): CompiledMatcher {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    const reason = unsupportedConstruct(source) ?? (error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error));
    return { ok: false, error: reason, fix: FIX };
  }
  const literals = literalAlternatives(source);
  if (literals === undefined) return { ok: true, pattern: new CompiledPattern(source, compiled) };
  const native = literals.map(({ text, start, end }) => `${start ? '^' : ''}${escapePattern(text)}${end ? '$' : ''}`).join('|');
  return { ok: true, pattern: new CompiledPattern(source, new RegExp(native)) };
}

// The engine sits in a private field, so two matchers of one source compare equal (as two RegExps
// of one source do in deep equality). A RegExp here has no flags: `test` keeps no lastIndex state.
class CompiledPattern implements Matcher {
  readonly source: string;
  readonly #engine: { test(text: string): boolean };

  constructor(source: string, engine: { test(text: string): boolean }) {
    this.source = source;
    this.#engine = engine;
  }

  test(text: string): boolean {
    return this.#engine.test(text);
  }
}
