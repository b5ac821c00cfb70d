import type { JournalEntry } from '../plugins/journal.ts';
import type { EmitOutcome } from './emit-outcome.ts';

/** What `engine.resume()` did with the journal's pending entries. */
export interface ResumeReport {
  /**
   * Entries whose durable hooks ran, each with the settled outcome of that run (its `warnings` say
   * which hooks failed). They were cleared unless a warning says otherwise.
   */
  readonly ran: ReadonlyArray<{ readonly entry: JournalEntry; readonly outcome: EmitOutcome }>;
  /** Entries left pending, and why: the engine closed while they ran, or they are not this engine's to run. */
  readonly pending: ReadonlyArray<{ readonly entry: JournalEntry; readonly error: string }>;
}
