import { HooklineError } from './hookline-error.ts';

/**
 * Thrown by a factory or `createHookEngine` given an option value it cannot use (a pool size of 0, a
 * retry count that is not an integer): a mistake in the host's code, not in a config file.
 */
export class InvalidOptionError extends HooklineError {
  /** The option, as the caller spelled it: `poolSize`, `journalLeaseMs`. */
  readonly option: string;

  /** `where` names the function that refused it (`scriptRunner`), so the message says whose option it is. */
  constructor(where: string, option: string, message: string) {
    super('HOOKLINE_INVALID_OPTION', `${where}: ${message}`);
    this.name = 'InvalidOptionError';
    this.option = option;
  }
}
