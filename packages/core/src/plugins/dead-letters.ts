import type { Journal, JournalEntry } from './journal.ts';
import type { JournalSeal } from './journal-seal.ts';
import { PluginError } from '../errors/plugin-error.ts';

/** Which dead letters {@link retryDeadLetters} retries; every given condition must hold. */
export interface DeadLetterSelection {
  /** Only these entries. */
  readonly ids?: readonly string[];
  /** Only those dead-lettered at or after this time (ms since the epoch): "every failed message since …". */
  readonly since?: number;
  /**
   * Only those with an attempt to this target (an HTTP hook's URL, as written in the config). The
   * target is re-enabled first when it was disabled (an endpoint that answered 410 Gone).
   */
  readonly endpoint?: string;
}

/** What {@link retryDeadLetters} did. */
export interface DeadLetterRetry {
  /** Ids made pending again, claimable at once. */
  readonly retried: readonly string[];
  /** Dead letters left as they are because their seal does not verify with the key (retry them one by one, vouching for each). */
  readonly refused: ReadonlyArray<{ readonly id: string; readonly reason: string }>;
  /** The endpoint was disabled and is enabled again. */
  readonly reenabled: boolean;
}

/**
 * Retries the dead letters a selection names — the library side of `hookline journal retry
 * ID|--since DATE|--endpoint URL`. With `seal` (the engine's key), an entry whose seal does not verify
 * is not retried but reported: it would only be refused again, and only a person can vouch for it.
 * A retried entry's hooks that were given up on run again from the start of their schedule.
 */
export async function retryDeadLetters(
  journal: Journal,
  selection: DeadLetterSelection,
  seal?: JournalSeal,
): Promise<DeadLetterRetry> {
  if (journal.doRetry === undefined)
    throw new PluginError(
      `${journal.name} keeps no dead letters to retry (it has no doRetry); @hookline/journal-sqlite and @hookline/journal-postgres do.`,
    );
  const reenabled =
    selection.endpoint !== undefined && journal.doEnableTarget !== undefined
      ? await journal.doEnableTarget(selection.endpoint)
      : false;
  const dead = await journal.list({ state: 'dead-lettered' });
  const ids = selection.ids === undefined ? undefined : new Set(selection.ids);
  const chosen = dead.filter((entry) => matches(entry, selection, ids));
  const retried: string[] = [];
  const refused: Array<{ id: string; reason: string }> = [];
  for (const entry of chosen) {
    const verdict = seal === undefined ? 'valid' : await seal.verifyEntry(journal.scope, entry);
    if (verdict !== 'valid') {
      refused.push({
        id: entry.id,
        reason: verdict === 'missing' ? 'it has no seal' : 'its seal does not verify with this key',
      });
      continue;
    }
    if (await journal.doRetry(entry.id)) retried.push(entry.id);
  }
  return { retried, refused, reenabled };
}

/** Deletes the dead letters dead-lettered before `before` (ms since the epoch); resolves to how many. */
export async function purgeDeadLetters(journal: Journal, before: number): Promise<number> {
  if (journal.doPurge === undefined)
    throw new PluginError(
      `${journal.name} cannot purge dead letters (it has no doPurge); @hookline/journal-sqlite and @hookline/journal-postgres can.`,
    );
  return journal.doPurge(before);
}

function matches(entry: JournalEntry, selection: DeadLetterSelection, ids: ReadonlySet<string> | undefined): boolean {
  if (ids !== undefined && !ids.has(entry.id)) return false;
  if (selection.since !== undefined && (entry.deadLetteredAt ?? 0) < selection.since) return false;
  if (
    selection.endpoint !== undefined &&
    !(entry.deliveries ?? []).some((attempt) => attempt.target === selection.endpoint)
  )
    return false;
  return true;
}
