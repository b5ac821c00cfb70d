/** Idle waiters and the announcements that wake them. */
export interface Wakeups {
  /** Something may have become claimable: wakes every waiter, or the next call to `wait` if none waits. */
  announce(): void;
  /** True when an announcement came since the previous wait returned; false after `maxWaitMs` or on abort. */
  wait(maxWaitMs: number, signal: AbortSignal | undefined): Promise<boolean>;
  /** Ends every wait with false (the journal closes). */
  endAll(): void;
}

/** A {@link Wakeups}: an announcement made while nobody waits is kept for the next wait, so none is missed. */
export function createWakeups(): Wakeups {
  let announced = false;
  const waiters = new Set<(woken: boolean) => void>();
  return {
    announce() {
      announced = true;
      for (const wake of [...waiters]) wake(true);
    },
    wait(maxWaitMs, signal) {
      if (signal?.aborted === true) return Promise.resolve(false);
      if (announced) {
        announced = false;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        const done = (woken: boolean): void => {
          clearTimeout(timer);
          waiters.delete(done);
          signal?.removeEventListener('abort', aborted);
          if (woken) announced = false;
          resolve(woken);
        };
        const aborted = (): void => done(false);
        const timer = setTimeout(() => done(false), Math.max(0, maxWaitMs));
        waiters.add(done);
        signal?.addEventListener('abort', aborted, { once: true });
      });
    },
    endAll() {
      for (const wake of [...waiters]) wake(false);
    },
  };
}
