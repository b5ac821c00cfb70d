import { HooklineError } from './hookline-error.ts';

/**
 * Thrown by a journal that cannot do its work: its file cannot be opened, is not a journal, or is
 * corrupted. The message names the file and what to do; the file itself is left as it was.
 */
export class JournalError extends HooklineError {
  /** The journal's file (or other location), when it has one. */
  readonly location: string | undefined;

  constructor(message: string, options?: { readonly location?: string; readonly cause?: unknown }) {
    super('HOOKLINE_JOURNAL_FAILED', message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JournalError';
    this.location = options?.location;
  }
}
