import { Script } from 'node:vm';

/**
 * Whether V8 runs with --allow-natives-syntax. V8 flags are per process, so the flag reaches every
 * isolate, where `%Function()` calls would let a script use V8's internal runtime functions. Only
 * parses: without the flag, `%` cannot start an expression.
 */
export function nativesSyntaxEnabled(): boolean {
  try {
    new Script('%HooklineProbe()');
    return true;
  } catch (error) {
    return !(error instanceof Error && error.message === "Unexpected token '%'");
  }
}

/** The failure of every script hook in a process with natives syntax on. */
export const NATIVES_SYNTAX_ERROR =
  'script hooks cannot run while Node runs with --allow-natives-syntax: V8 flags reach every isolate, and that one would give scripts V8 internals; start Node without it';
