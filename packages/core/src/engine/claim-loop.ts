import { sleepUnlessAborted } from '../plugins/sleep-unless-aborted.ts';

/** How {@link claimLoop} takes and runs work. */
export interface ClaimLoopOptions<T> {
  /** How many items run at once: that many loops claim side by side. */
  readonly concurrency: number;
  /** Takes the next item, or `undefined` when none is ready; rejects when the source fails. */
  readonly claim: () => Promise<T | undefined>;
  /** Runs one item; its failures are its own business (it should not reject). */
  readonly run: (item: T) => Promise<void>;
  /**
   * Without it the loops drain: they return once nothing is left to claim. With it they keep going —
   * waiting for work when idle, trying again after a failed claim — until it aborts; then they stop
   * claiming, and return once the items they run have ended.
   */
  readonly signal?: AbortSignal;
  /**
   * How an idle loop waits for work (`Journal.doWaitForWork`): resolves when an item may have become
   * claimable. Without it idle loops sleep `pollMs`.
   */
  readonly waitForWork?: (maxWaitMs: number, signal: AbortSignal) => Promise<unknown>;
  /** The longest an idle loop waits before it claims again, and the pause after a failed claim. */
  readonly pollMs: number;
  /** With a `signal`: told each failed claim (the loop tries again after `pollMs`). */
  readonly onClaimError?: (error: unknown) => void;
}

/**
 * Claims and runs items with `concurrency` loops. Draining (no `signal`) rejects with the first failed
 * claim once every loop has stopped; a long-running loop (`signal`) reports failed claims and goes on.
 * Idle loops share one wait, so `concurrency` idle loops make one call to `waitForWork`, not many.
 */
export async function claimLoop<T>(options: ClaimLoopOptions<T>): Promise<void> {
  const { signal } = options;
  let failure: { readonly error: unknown } | undefined;
  let idle: Promise<void> | undefined;
  const waitForWork = (): Promise<void> => {
    idle ??= pause(options, signal!).finally(() => (idle = undefined));
    return idle;
  };
  const loop = async (): Promise<void> => {
    while (failure === undefined && signal?.aborted !== true) {
      let item: T | undefined;
      try {
        item = await options.claim();
      } catch (error) {
        if (signal === undefined) {
          failure ??= { error };
          return;
        }
        options.onClaimError?.(error);
        await sleepUnlessAborted(options.pollMs, signal);
        continue;
      }
      if (item !== undefined) await options.run(item);
      else if (signal === undefined) return;
      else await waitForWork();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, loop));
  if (failure !== undefined) throw failure.error;
}

async function pause(
  options: Pick<ClaimLoopOptions<unknown>, 'waitForWork' | 'pollMs'>,
  signal: AbortSignal,
): Promise<void> {
  if (options.waitForWork === undefined) return sleepUnlessAborted(options.pollMs, signal);
  try {
    await options.waitForWork(options.pollMs, signal);
  } catch {
    // A journal that cannot wait now (its server restarting) is asked again after a poll interval.
    await sleepUnlessAborted(options.pollMs, signal);
  }
}
