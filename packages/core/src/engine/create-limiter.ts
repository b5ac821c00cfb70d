import { InvalidOptionError } from '../errors/invalid-option-error.ts';

/** Runs async tasks with at most `limit` of them in flight; the rest wait in arrival order. */
export interface Limiter {
  run<T>(task: () => T | Promise<T>): Promise<T>;
}

/** Creates a first-in-first-out concurrency limiter. */
export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidOptionError('createHookEngine', 'concurrency', `concurrency must be a positive integer, got ${limit}.`);
  let active = 0;
  const waiting: Array<() => void> = [];
  // A finishing task hands its slot straight to the next waiter, so no newcomer can slip in between.
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) active--;
    else next();
  };
  return {
    async run(task) {
      if (active < limit) active++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
