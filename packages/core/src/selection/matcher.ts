/** A compiled matcher: tests a context field's text in time linear in the text's length. */
export interface Matcher {
  /** The pattern as written in the config. */
  readonly source: string;
  /** Whether the pattern matches anywhere in `text` (matching is unanchored). */
  test(text: string): boolean;
}

/** A matcher compiled once at load, or why its pattern is refused and how to fix it. */
export type CompiledMatcher =
  | { readonly ok: true; readonly pattern: Matcher }
  | { readonly ok: false; readonly error: string; readonly fix: string };
