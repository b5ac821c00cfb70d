import { HooklineError } from './hookline-error.ts';

/**
 * Thrown by a journal that cannot do its work: its file cannot be opened, is not a journal, or is
 * corrupted (`HOOKLINE_JOURNAL_FAILED`) — or, with `busy` set (`HOOKLINE_JOURNAL_BUSY`), it is
 * usable but another process held its lock for longer than the journal waits. The message names the
 * file and what to do; the file itself is left as it was.
 */
export class JournalError extends HooklineError {
  /** The journal's file (or other location), when it has one. */
  readonly location: string | undefined;
  /**
   * The journal is fine but stayed locked past its busy timeout: a transient state, not an unusable
   * journal. The engine then fails the durable hooks of an emit instead of running them unjournaled.
   */
  readonly busy: boolean;

  constructor(
    message: string,
    options?: { readonly location?: string; readonly cause?: unknown; readonly busy?: boolean },
  ) {
    super(
      options?.busy === true ? 'HOOKLINE_JOURNAL_BUSY' : 'HOOKLINE_JOURNAL_FAILED',
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'JournalError';
    this.location = options?.location;
    this.busy = options?.busy === true;
  }
}
