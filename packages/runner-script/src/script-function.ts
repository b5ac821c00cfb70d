/**
 * Wraps a hook's body in the async function it is the body of. The head stays on a line of its own,
 * so compiling with `lineOffset: -1` numbers the body's first line 1 in syntax errors and stacks.
 * Strict mode makes a write to the frozen context throw instead of being silently ignored.
 */
export function scriptFunctionSource(body: string): string {
  return `(async function (context) { "use strict";\n${body}\n})`;
}

/** The line offset that makes line 1 of a compiled {@link scriptFunctionSource} the body's first line. */
export const SCRIPT_LINE_OFFSET = -1;
