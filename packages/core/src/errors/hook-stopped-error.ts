import { HooklineError } from './hookline-error.ts';

/**
 * The reason a hook's abort signal carries when the engine is done with the hook: its report is
 * final (`the hook is over`) or its `timeout_ms` passed. Runners read it to say why they stopped.
 */
export class HookStoppedError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_HOOK_STOPPED', message);
    this.name = 'HookStoppedError';
  }
}
