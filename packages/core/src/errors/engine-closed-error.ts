import { HooklineError } from './hookline-error.ts';

/** Thrown by `emit` after `close()` was called: a closed engine has no sandbox sessions left to use. */
export class EngineClosedError extends HooklineError {
  /** `message` replaces the default when the error is an abort reason (`the engine closed`) rather than an `emit`'s refusal. */
  constructor(message = 'The hook engine is closed; create a new one with createHookEngine().') {
    super('HOOKLINE_ENGINE_CLOSED', message);
    this.name = 'EngineClosedError';
  }
}
