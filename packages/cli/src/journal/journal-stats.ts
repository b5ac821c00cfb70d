import { journalEntryState, type Journal, type JournalStats } from '@hookline/core';

/**
 * A journal's counts by state: its own `stats()` (both bundled journals count in one query), else
 * counted from `list()` on this machine's clock.
 */
export async function readJournalStats(journal: Journal): Promise<JournalStats> {
  if (journal.stats !== undefined) return journal.stats();
  const now = Date.now();
  const counts = { pending: 0, leased: 0, deadLettered: 0, highestAttempts: 0, now };
  let oldest: number | undefined;
  for (const entry of await journal.list()) {
    const state = journalEntryState(entry, now);
    if (state === 'dead-lettered') {
      counts.deadLettered++;
      continue;
    }
    counts[state]++;
    oldest = Math.min(oldest ?? entry.createdAt, entry.createdAt);
    counts.highestAttempts = Math.max(counts.highestAttempts, entry.attempts);
  }
  return { ...counts, ...(oldest === undefined ? {} : { oldestCreatedAt: oldest }) };
}

/** The oldest live entry's age as the journal's clock sees it, or undefined when there is none. */
export function oldestAgeMs(stats: JournalStats): number | undefined {
  return stats.oldestCreatedAt === undefined ? undefined : Math.max(0, stats.now - stats.oldestCreatedAt);
}
