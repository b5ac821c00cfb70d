import { JournalError } from '@hookline/core/plugin';

/**
 * How long one attempt lets SQLite's own busy handler wait for another process's lock. `node:sqlite`
 * is synchronous: that handler sleeps on the event loop's thread, so a whole busy timeout spent there
 * would freeze the process (its lease renewals, its hooks' I/O, its HTTP deliveries). Past this slice
 * the journal gives the event loop a turn (a pause of 5–25 ms) and tries again, until `busyTimeoutMs` has passed.
 */
export const BUSY_SLICE_MS = 50;

/** The default total wait for the lock: long enough for a burst of six processes fsyncing on a loaded machine. */
export const DEFAULT_BUSY_TIMEOUT_MS = 30_000;

/** Whether `error` says another connection held the lock (SQLITE_BUSY, SQLITE_LOCKED), as thrown or as wrapped. */
export function isBusy(error: unknown): boolean {
  if (JournalError.isInstance(error)) return error.busy;
  const code = (error as { errcode?: unknown } | null)?.errcode;
  // SQLite's primary result codes are the low byte of an extended one.
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6);
}

/** The pause before the next attempt: short, with jitter so that waiting processes do not retry in step. */
export function busyPauseMs(): number {
  return 5 + Math.floor(Math.random() * 20);
}
