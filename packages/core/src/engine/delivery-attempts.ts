import type { HookDefinition } from '../config/hook-definition.ts';
import type { JournalAttempt, JournalEntry, JournalNext } from '../plugins/journal.ts';
import type { DeliveryCall, DeliveryVerdict } from '../plugins/runner.ts';
import { clipText } from '../decisions/clip-text.ts';
import type { HookReport } from './emit-outcome.ts';

// What an attempt keeps of an error: enough to see the status line and the start of the body.
const ATTEMPT_ERROR_CHARACTERS = 500;
// Attempts kept per entry: a long schedule has a dozen; the first and the latest are what people read.
const MAX_KEPT_ATTEMPTS = 64;

/** The attempts of `hook` in `entry` that count towards its current schedule: those after its last `dead` one. */
function currentAttempts(entry: JournalEntry | undefined, hook: string): JournalAttempt[] {
  const mine = (entry?.deliveries ?? []).filter((attempt) => attempt.hook === hook);
  const lastDead = mine.findLastIndex((attempt) => attempt.outcome === 'dead');
  return mine.slice(lastDead + 1);
}

/** The {@link DeliveryCall} of a durable hook of a held entry. */
export function deliveryCall(
  messageKey: string,
  entry: JournalEntry | undefined,
  hook: string,
  now: number,
): DeliveryCall {
  const attempts = currentAttempts(entry, hook);
  return { messageKey, attempt: attempts.length + 1, firstAttemptAt: attempts[0]?.at ?? now };
}

/**
 * Why a durable hook of a claimed entry does not run again, or undefined when it does: it was done
 * (delivered, or ran) on an earlier attempt, or it was given up on while another hook of the entry
 * is still being retried. Once every hook is done or given up on the entry is cleared or
 * dead-lettered, so a dead letter retried by hand runs its given-up hooks again.
 */
export function settledEarlier(entry: JournalEntry | undefined, hook: string): string | undefined {
  const deliveries = entry?.deliveries;
  if (deliveries === undefined || deliveries.length === 0) return undefined;
  const last = lastOutcomes(deliveries);
  const mine = last.get(hook);
  if (mine?.outcome === 'done') return `done on an earlier attempt (${new Date(mine.at).toISOString()})`;
  if (mine?.outcome === 'dead' && [...last.values()].some((attempt) => attempt.outcome === 'retry'))
    return `given up on an earlier attempt: ${mine.error ?? 'no detail'}`;
  return undefined;
}

/** A durable hook that ran in this pass, with its target (its type's identity). */
export interface DeliveryRun {
  readonly hook: HookDefinition;
  readonly report: HookReport;
  readonly target: string | undefined;
}

/** What to do with a held entry once its durable hooks ended: clear it, or record attempts and retry or dead-letter it. */
export type EntrySettlement =
  | { readonly clear: true }
  | { readonly clear: false; readonly attempts: readonly JournalAttempt[]; readonly next: JournalNext };

/**
 * Decides an entry's fate from the verdicts of this pass and the attempts before it. Without any
 * verdict, now or before, it is cleared as always (the fast path: no attempt is written).
 */
export function settleEntry(
  entry: JournalEntry | undefined,
  runs: readonly DeliveryRun[],
  now: number,
): EntrySettlement {
  const earlier = entry?.deliveries ?? [];
  if (earlier.length === 0 && runs.every((run) => verdictOf(run.report) === undefined)) return { clear: true };
  const attempts: JournalAttempt[] = [];
  for (const { hook, report, target } of runs) {
    const verdict = verdictOf(report);
    // A deferral (rate limit, open circuit) did not try: nothing to keep.
    if (verdict?.next === 'retry' && !verdict.counted) continue;
    const error = verdict === undefined ? report.error : verdict.reason;
    const httpStatus = report['http_status'];
    attempts.push({
      hook: hook.name,
      ...(target === undefined ? {} : { target }),
      at: now,
      outcome: verdict === undefined ? 'done' : verdict.next,
      status: report.status,
      ...(typeof httpStatus === 'number' ? { httpStatus } : {}),
      durationMs: report.duration_ms ?? 0,
      ...(error === undefined ? {} : { error: clipText(error, ATTEMPT_ERROR_CHARACTERS) }),
    });
  }
  const last = lastOutcomes([...earlier, ...attempts]);
  const retries = runs.flatMap((run) => {
    const verdict = verdictOf(run.report);
    return verdict?.next === 'retry' ? [{ name: run.hook.name, verdict }] : [];
  });
  if (retries.length > 0) {
    const retryAfterMs = Math.max(0, Math.min(...retries.map((retry) => retry.verdict.afterMs)));
    const error = retries.map((retry) => `"${retry.name}": ${retry.verdict.reason}`).join('; ');
    return { clear: false, attempts: trimmed(earlier.length, attempts), next: { retryAfterMs, error } };
  }
  const dead = [...last.values()].filter((attempt) => attempt.outcome === 'dead');
  if (dead.length === 0) return { clear: true };
  return {
    clear: false,
    attempts: trimmed(earlier.length, attempts),
    next: {
      deadLetter: dead.map((attempt) => `"${attempt.hook}" given up: ${attempt.error ?? 'no detail'}`).join('; '),
    },
  };
}

/** A runner's verdict on a report, when it gave one. */
export function verdictOf(report: HookReport): DeliveryVerdict | undefined {
  const verdict = report['delivery'];
  return typeof verdict === 'object' && verdict !== null && 'next' in verdict
    ? (verdict as DeliveryVerdict)
    : undefined;
}

// The latest attempt of each hook.
function lastOutcomes(attempts: readonly JournalAttempt[]): Map<string, JournalAttempt> {
  const last = new Map<string, JournalAttempt>();
  for (const attempt of attempts) last.set(attempt.hook, attempt);
  return last;
}

// Journals keep what they are given; past the cap the newest attempts are dropped, the first ones kept.
function trimmed(kept: number, attempts: JournalAttempt[]): JournalAttempt[] {
  return attempts.slice(0, Math.max(0, MAX_KEPT_ATTEMPTS - kept));
}
