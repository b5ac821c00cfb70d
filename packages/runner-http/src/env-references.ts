/** One `$VAR` or `${VAR}` in a header value. */
export interface EnvReference {
  readonly name: string;
  /** The text as written (`$TOKEN`, `${TOKEN}`). */
  readonly text: string;
  readonly start: number;
}

// POSIX shell variable names. `${` without a valid name and `}` is left as literal text, like a lone `$`.
const REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** A valid environment variable name: letters, digits and `_`, not starting with a digit. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Every `$VAR` and `${VAR}` in `text`, in order. A `$` not followed by a name is literal. */
export function findEnvReferences(text: string): EnvReference[] {
  return [...text.matchAll(REFERENCE)].map((match) => ({
    name: (match[1] ?? match[2])!,
    text: match[0],
    start: match.index,
  }));
}

/**
 * Replaces each reference with `lookup(name, written)`, where `written` is the reference as it
 * appears. Replacement text is never scanned again, so a value that itself contains `$OTHER` stays.
 */
export function replaceEnvReferences(text: string, lookup: (name: string, written: string) => string): string {
  return text.replace(REFERENCE, (written: string, braced: string | undefined, bare: string | undefined) =>
    lookup((braced ?? bare)!, written),
  );
}
