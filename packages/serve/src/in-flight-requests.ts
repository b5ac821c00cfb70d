/** Counts requests being answered, so that a stop can wait for them (drain). */
export interface InFlightRequests {
  readonly count: number;
  start(): void;
  end(): void;
  /** Resolves once no request is being answered. */
  idle(): Promise<void>;
}

export function inFlightRequests(): InFlightRequests {
  let count = 0;
  let waiters: Array<() => void> = [];
  return {
    get count() {
      return count;
    },
    start() {
      count += 1;
    },
    end() {
      count -= 1;
      if (count > 0) return;
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    idle() {
      return count === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
