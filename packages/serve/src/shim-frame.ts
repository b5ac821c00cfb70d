import type { HookAnswer } from './serve-backend.ts';

/** The header a shim sends to get its answer framed for `bash`: `x-hookline-shim: 1`. */
export const SHIM_HEADER = 'x-hookline-shim';

/**
 * An answer as the shim reads it without a JSON parser: the body is stdout then stderr, and two
 * headers give the exit code and stdout's length in bytes. The shim reads the headers line by line
 * and the body in one read of its length, then cuts it by byte offset — no pattern matching over a
 * payload, which bash does in quadratic time.
 */
export function shimFrame(answer: HookAnswer): { readonly headers: Record<string, string>; readonly body: string } {
  return {
    headers: {
      'hookline-exit-code': String(answer.exitCode),
      'hookline-stdout-bytes': String(Buffer.byteLength(answer.stdout)),
    },
    body: `${answer.stdout}${answer.stderr}`,
  };
}
