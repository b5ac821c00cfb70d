/**
 * The text to show for a caught value: an `Error`'s message, anything else as a string. Code that
 * catches `unknown` uses this instead of checking `instanceof Error` itself, so every message reads
 * the same way.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
