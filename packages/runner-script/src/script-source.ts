import { SCRIPT_GLOBALS } from './script-globals.ts';
import { SCRIPT_LINE_OFFSET, scriptFunctionSource } from './script-function.ts';

/** The global a run's context JSON travels through; the harness deletes it before the hook runs. */
export const CONTEXT_GLOBAL = '__hooklineContextJson';

/** The file name inline scripts carry in stack traces. */
export const INLINE_SCRIPT_FILENAME = 'hookline-inline-script';

// Runs inside a fresh context of the isolate, before and after the hook's own function. It captures
// the built-ins it needs before the hook can replace them, and answers with one JSON string, so
// nothing but a string ever crosses back to the host. A global it can neither delete nor empty
// stops the run.
const HARNESS = `(function (hook) {
  "use strict";
  const json = globalThis.${CONTEXT_GLOBAL};
  if (typeof json !== "string") throw new Error("the context did not arrive");
  const keep = new Set(${JSON.stringify(SCRIPT_GLOBALS)});
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (keep.has(name) || Reflect.deleteProperty(globalThis, name)) continue;
    // Non-configurable (V8 installs flag globals so): emptied and frozen in place instead.
    if (!Reflect.defineProperty(globalThis, name, { value: undefined, writable: false })) throw new Error("cannot remove the global " + name);
  }
  const { parse, stringify } = JSON;
  const { freeze, isFrozen, keys } = Object;
  const { isArray } = Array;
  const BaseError = Error;
  const cap = (text, length) => (text.length > length ? text.slice(0, length) + "…" : text);
  const deepFreeze = (root) => {
    const pending = [root];
    while (pending.length > 0) {
      const value = pending.pop();
      if (typeof value !== "object" || value === null || isFrozen(value)) continue;
      freeze(value);
      for (const key of keys(value)) pending.push(value[key]);
    }
    return root;
  };
  const describe = (value) => {
    if (value === null) return "null";
    if (isArray(value)) return "an array";
    switch (typeof value) {
      case "string": return "a string (" + stringify(cap(value, 60)) + ")";
      case "number": return "a number (" + String(value) + ")";
      case "bigint": return "a bigint (" + String(value) + ")";
      case "symbol": return "a symbol";
      case "function": return "a function";
      case "object": return "an object";
      default: return typeof value;
    }
  };
  const answer = (value) => {
    if (value === undefined) return stringify({ kind: "nothing" });
    if (value === true || value === false) return stringify({ kind: "boolean", value });
    if (typeof value === "object" && value !== null && !isArray(value)) {
      let text;
      try {
        text = stringify(value);
      } catch (error) {
        return stringify({ kind: "other", description: "an object that cannot be turned into JSON (" + cap(String(error && error.message), 200) + ")" });
      }
      return stringify({ kind: "object", json: text });
    }
    return stringify({ kind: "other", description: describe(value) });
  };
  const failure = (error) => {
    if (error instanceof BaseError) {
      return stringify({ kind: "error", name: cap(String(error.name), 100), message: cap(String(error.message), 2000), stack: cap(String(error.stack), 4000) });
    }
    return stringify({ kind: "error", thrown: describe(error) });
  };
  return (async () => {
    let value;
    try {
      value = await hook(deepFreeze(parse(json)));
    } catch (error) {
      try {
        return failure(error);
      } catch {
        return stringify({ kind: "error", thrown: "a value that could not be described" });
      }
    }
    try {
      return answer(value);
    } catch {
      return stringify({ kind: "unreadable" });
    }
  })();
})(`;

const HARNESS_LINES = HARNESS.split('\n').length;

/** A hook's script as one isolate program: the harness called with the hook's function. */
export interface ScriptSource {
  /** Compiled once per isolate and source, then run in a fresh context per hook run. */
  readonly program: string;
  /** Identifies the compiled program in an isolate's cache: the same body under another file name differs. */
  readonly key: string;
  /** The file name stack traces name: the script file's path, or {@link INLINE_SCRIPT_FILENAME}. */
  readonly filename: string;
  /** Makes the body's first line line 1 in stacks. */
  readonly lineOffset: number;
  /** Whether the body came from `script` (positions are "line N of the script") or from `file`. */
  readonly origin: 'inline' | 'file';
}

/** Builds the program for a body that {@link findSyntaxError} accepted. */
export function scriptSource(body: string, origin: 'inline' | 'file', filename: string): ScriptSource {
  const program = `${HARNESS}\n${scriptFunctionSource(body)})`;
  return {
    program,
    key: origin === 'inline' ? program : `${filename}\n${program}`,
    filename,
    // The harness's lines come first; the function head after them is line 0.
    lineOffset: SCRIPT_LINE_OFFSET - HARNESS_LINES,
    origin,
  };
}
