const marker = Symbol.for('hookline.error');

/**
 * Base class of every error Hookline throws. Errors are for misuse and bugs; expected outcomes
 * (a hook that blocks, fails or times out) are reports, never exceptions.
 *
 * The `Symbol.for` marker lets {@link HooklineError.isInstance} recognise errors thrown by another
 * copy of `@hookline/core` (duplicate installs), where `instanceof` would fail.
 */
export class HooklineError extends Error {
  /** Stable, machine-readable identifier, e.g. `HOOKLINE_CONFIG_INVALID`. */
  readonly code: string;
  readonly [marker] = true;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HooklineError';
    this.code = code;
  }

  /** True for any Hookline error, from any copy of the package. */
  static isInstance(value: unknown): value is HooklineError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
