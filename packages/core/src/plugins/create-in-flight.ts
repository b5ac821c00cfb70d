/** Promises kept until they settle, so that a close or dispose can wait for work still running. */
export interface InFlight {
  /** Keeps `work` until it settles (fulfilled or rejected) and returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T>;
  /** How many tracked promises have not settled yet. */
  readonly size: number;
  /** Resolves once every promise tracked at the time of the call has settled; never rejects. */
  settled(): Promise<void>;
  /** Resolves once nothing is in flight, counting work tracked while it waits; never rejects. */
  idle(): Promise<void>;
}

/**
 * Creates an empty {@link InFlight}. Settled work leaves the set by itself, so a long-lived host
 * that tracks every call stays small.
 */
export function createInFlight(): InFlight {
  const pending = new Set<Promise<unknown>>();
  const settled = async (): Promise<void> => {
    await Promise.allSettled([...pending]);
  };
  return {
    track(work) {
      pending.add(work);
      const forget = (): void => void pending.delete(work);
      work.then(forget, forget);
      return work;
    },
    get size() {
      return pending.size;
    },
    settled,
    async idle() {
      while (pending.size > 0) await settled();
    },
  };
}
