import { HooklineError } from '@hookline/core';

/**
 * A problem with how the CLI was called or with the files it was pointed at: bad usage, a missing
 * config or context file, a context that is not an object. The message says what to do; the CLI
 * prints it and exits 1.
 */
export class CliError extends HooklineError {
  constructor(code: `HOOKLINE_CLI_${string}`, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'CliError';
  }
}
