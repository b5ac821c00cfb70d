import type { HookAnswer } from './serve-backend.ts';

/**
 * The separator of a shim answer's parts: ASCII record separator. JSON never holds it unescaped,
 * so it cannot occur in an agent answer's stdout; stderr, free text, comes last.
 */
export const SHIM_SEPARATOR = '\u001e';

/** The header a shim sends to get its answer framed for `sh`: `x-hookline-shim: 1`. */
export const SHIM_HEADER = 'x-hookline-shim';

/**
 * An answer as the shim reads it without a JSON parser: `<exit code> RS <stdout> RS <stderr>`. The
 * shim splits it with parameter expansion, prints each part where it belongs and exits with the code.
 */
export function shimFrame(answer: HookAnswer): string {
  return `${answer.exitCode}${SHIM_SEPARATOR}${answer.stdout}${SHIM_SEPARATOR}${answer.stderr}`;
}
