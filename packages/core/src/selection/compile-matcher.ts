/** A matcher compiled once at load, or the reason its pattern is not a valid regular expression. */
export type CompiledMatcher = { readonly ok: true; readonly pattern: RegExp } | { readonly ok: false; readonly error: string };

/**
 * Compiles a hook's `matcher`: a JavaScript regular expression, unanchored (write `^agent$` to match
 * exactly), without flags, so `test` has no `lastIndex` state between calls.
 */
export function compileMatcher(source: string): CompiledMatcher {
  try {
    return { ok: true, pattern: new RegExp(source) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
