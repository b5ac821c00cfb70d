import { HooklineError } from '@hookline/core';

/**
 * What the resident engine throws: a state directory it cannot use, a daemon that does not answer,
 * a port that is taken. `code` is one of the `HOOKLINE_SERVE_*` codes listed in the README.
 */
export class ServeError extends HooklineError {
  constructor(code: `HOOKLINE_SERVE_${string}`, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'ServeError';
  }
}
