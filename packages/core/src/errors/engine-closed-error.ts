import { HooklineError } from './hookline-error.ts';

/** Thrown by `emit` after `close()` was called: a closed engine has no sandbox sessions left to use. */
export class EngineClosedError extends HooklineError {
  constructor() {
    super('HOOKLINE_ENGINE_CLOSED', 'The hook engine is closed; create a new one with createHookEngine().');
    this.name = 'EngineClosedError';
  }
}
