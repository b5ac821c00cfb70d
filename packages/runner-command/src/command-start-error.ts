import { HooklineError } from '@hookline/core/plugin';

/**
 * Why a process could not be started: the shell or program is missing, or the working directory
 * does not exist. `exec` rejects with it; the command runner reports the hook `failed` with its
 * message, and the hook's `on_error` decides.
 */
export class CommandStartError extends HooklineError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HOOKLINE_COMMAND_START_FAILED', message, options);
    this.name = 'CommandStartError';
  }
}
