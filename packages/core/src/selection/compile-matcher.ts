import { RE2JS } from 're2js';
import { escapePattern } from './exact-matcher.ts';
import { linearNativeRegExp } from './linear-native-regexp.ts';
import { compileLookaroundMatcher } from './lookaround-matcher.ts';
import type { CompiledMatcher, Matcher } from './matcher.ts';
import { literalAlternatives } from './literal-alternatives.ts';
import { unsupportedConstruct } from './unsupported-construct.ts';

export type { CompiledMatcher, Matcher } from './matcher.ts';

/** How a preset's matchers are read, beyond RE2 syntax. */
export interface MatcherOptions {
  /**
   * Accept lookaround, as a host that reads matchers as JavaScript regular expressions does
   * (`claude`), within the limits of {@link compileLookaroundMatcher}.
   */
  readonly lookaround?: boolean;
}

const FIX =
  'fix the pattern: matchers use RE2 syntax (like Go and Arc), unanchored, without backreferences or lookaround';

/**
 * Compiles a hook's `matcher` with RE2 semantics, unanchored (write `^agent$` to match exactly). RE2
 * matches in time linear in the input, so no pattern can stall the engine the way a backtracking
 * engine stalls on `(a+)+$`; the price is that backreferences and lookaround, which need
 * backtracking, are refused at load. Most patterns still run on the native RegExp engine, which is
 * several times faster: a pattern made only of literal alternatives (`deploy`, `^Bash$`,
 * `^(build|test)$`), which cannot backtrack more than its own length at each position, and a pattern
 * proven to run in linear time on a backtracking engine too ({@link linearNativeRegExp}: `^stage_\d+$`,
 * `^mcp__.*`, `^[a-z]+-(agent|review)$`), translated so that it answers as RE2 would. Everything
 * else runs on RE2.
 */
export function compileMatcher(source: string, options: MatcherOptions = {}): CompiledMatcher {
  if (options.lookaround === true) {
    const lookaround = compileLookaroundMatcher(source);
    if (lookaround !== undefined) return lookaround;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    const reason =
      unsupportedConstruct(source) ??
      (error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error));
    return { ok: false, error: reason, fix: FIX };
  }
  const literals = literalAlternatives(source);
  const native =
    literals === undefined
      ? linearNativeRegExp(source)
      : new RegExp(
          literals
            .map(({ text, start, end }) => `${start ? '^' : ''}${escapePattern(text)}${end ? '$' : ''}`)
            .join('|'),
        );
  return { ok: true, pattern: new CompiledPattern(source, compiled, native) };
}

// The engines sit in private fields, so two matchers of one source compare equal (as two RegExps
// of one source do in deep equality). A RegExp here has no `g` or `y` flag: `test` keeps no lastIndex state.
class CompiledPattern implements Matcher {
  readonly source: string;
  readonly #re2: RE2JS;
  readonly #native: RegExp | undefined;

  constructor(source: string, re2: RE2JS, native: RegExp | undefined) {
    this.source = source;
    this.#re2 = re2;
    this.#native = native;
  }

  test(text: string): boolean {
    if (this.#native === undefined) return this.#re2.test(text);
    try {
      return this.#native.test(text);
    } catch {
      // V8's backtracking stack overflows (RangeError) on inputs of many megabytes; RE2 has no stack to overflow.
      return this.#re2.test(text);
    }
  }
}
