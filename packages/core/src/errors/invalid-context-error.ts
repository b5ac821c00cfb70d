import { HooklineError } from './hookline-error.ts';

/** Thrown by `emit` when the context is not a JSON object or lacks a field the preset requires. */
export class InvalidContextError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_INVALID_CONTEXT', message);
    this.name = 'InvalidContextError';
  }
}
