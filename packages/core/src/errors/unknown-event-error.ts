import { HooklineError } from './hookline-error.ts';

/** Thrown by `emit` for an event name that the active preset's catalog does not contain. */
export class UnknownEventError extends HooklineError {
  readonly event: string;

  /**
   * `owner` is another preset whose catalog has the event: then the fix is to name that preset,
   * not a spelling.
   */
  constructor(event: string, preset: string, known: readonly string[], suggestion: string | undefined, owner?: string) {
    const hint =
      owner !== undefined
        ? ` It is an event of preset "${owner}": add preset = "${owner}" to the config.`
        : suggestion === undefined
          ? ''
          : ` Did you mean "${suggestion}"?`;
    super(
      'HOOKLINE_UNKNOWN_EVENT',
      `Unknown event "${event}" for preset "${preset}".${hint} Known events: ${known.join(', ')}.`,
    );
    this.name = 'UnknownEventError';
    this.event = event;
  }
}
