import { HooklineError } from './hookline-error.ts';

/** Thrown by `emit` for an event name that the active preset's catalog does not contain. */
export class UnknownEventError extends HooklineError {
  readonly event: string;

  constructor(event: string, preset: string, known: readonly string[], suggestion: string | undefined) {
    const hint = suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`;
    super(
      'HOOKLINE_UNKNOWN_EVENT',
      `Unknown event "${event}" for preset "${preset}".${hint} Known events: ${known.join(', ')}.`,
    );
    this.name = 'UnknownEventError';
    this.event = event;
  }
}
