import { compileFunction, Script } from 'node:vm';
import { messageOf } from '@hookline/core/plugin';
import { SCRIPT_LINE_OFFSET, scriptFunctionSource } from './script-function.ts';

/** Where and why a script body does not parse. */
export interface ScriptSyntaxError {
  /** V8's message, e.g. "Unexpected token '}'", or what the position tells. */
  readonly message: string;
  /** 1-based line in the body, when known. */
  readonly line?: number;
  /** 1-based column in that line, when known. */
  readonly column?: number;
  /** The body ended while something (a block, a call, a string) was still open. */
  readonly atEnd?: boolean;
}

const CHECK_FILENAME = 'hookline-script-syntax-check';
const AsyncFunction = (async () => undefined).constructor as new (...parameters: string[]) => unknown;
const UNBALANCED =
  "the script ends with a bracket, brace or string left open, or a `}` closes the script's function early";
const END_OF_INPUT = 'Unexpected end of input: a bracket, brace, string or template is left open';

/**
 * Parses a script body without running any of it. The host's V8 is the isolates' V8, so what parses
 * here parses there.
 *
 * The body is compiled inside its strict async function wrapper (`vm.Script`), which finds almost
 * every error with its position. Two cases need a second look, because the wrapper's own closing
 * lines are where the parser notices them: a body left open, and a body with one `}` too many that
 * closes the function early (which can even parse as a whole program). Node's `vm.compileFunction`
 * parses the body alone as a function body and points at the stray `}`; it cannot take `await`, so
 * when the body awaits before the problem, the message says what the two causes can be. The
 * AsyncFunction constructor, which also parses the body alone (per the spec's CreateDynamicFunction),
 * confirms a body that parsed inside the wrapper. Nothing here calls the function.
 */
export function findSyntaxError(body: string): ScriptSyntaxError | undefined {
  const bodyLines = body.split('\n').length;
  const wrapped = compileError(
    () => new Script(scriptFunctionSource(body), { filename: CHECK_FILENAME, lineOffset: SCRIPT_LINE_OFFSET }),
    bodyLines,
  );
  if (wrapped !== undefined && wrapped.atEnd !== true) return wrapped;
  if (wrapped === undefined && parsesAlone(body)) return undefined;
  const alone = compileError(() => compileFunction(body, ['context'], { filename: CHECK_FILENAME }), bodyLines);
  if (alone !== undefined && !/\bawait\b/.test(alone.message)) return alone;
  return { message: UNBALANCED, atEnd: true };
}

/** Whether the body parses on its own as an async function body (true when that check cannot run). */
function parsesAlone(body: string): boolean {
  try {
    new AsyncFunction('context', `"use strict";${body}`);
    return true;
  } catch (error) {
    // An EvalError means the host runs with --disallow-code-generation-from-strings: no verdict.
    return !(error instanceof Error && error.name === 'SyntaxError');
  }
}

/** Runs a compile and reads the position Node puts on the error's stack ("file:line", source, caret). */
function compileError(compile: () => unknown, bodyLines: number): ScriptSyntaxError | undefined {
  try {
    compile();
    return undefined;
  } catch (error) {
    const message = messageOf(error);
    const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack.split('\n') : [];
    const header =
      stack[0]?.startsWith(`${CHECK_FILENAME}:`) === true ? stack[0].slice(CHECK_FILENAME.length + 1) : undefined;
    const line = header === undefined ? Number.NaN : Number(header);
    if (message === 'Unexpected end of input') return { message: END_OF_INPUT, atEnd: true };
    if (!Number.isInteger(line) || line < 1) return { message };
    // Past the body: the wrapper's closing line.
    if (line > bodyLines) return { message, atEnd: true };
    const caret = stack[2]?.indexOf('^') ?? -1;
    return caret >= 0 ? { message, line, column: caret + 1 } : { message, line };
  }
}

/** ` (line 2, column 9 of the script)`, or nothing when there is no line (an error at the end says so itself). */
export function describeSyntaxPosition(error: ScriptSyntaxError): string {
  if (error.line === undefined) return '';
  return error.column === undefined
    ? ` (line ${error.line} of the script)`
    : ` (line ${error.line}, column ${error.column} of the script)`;
}
