import { InvalidOptionError } from '../errors/invalid-option-error.ts';

/** Runs async tasks with at most `limit` of them in flight; the rest wait in arrival order. */
export interface Limiter {
  run<T>(task: () => T | Promise<T>): Promise<T>;
}

const NOBODY = (): void => undefined;

/** Creates a first-in-first-out concurrency limiter. */
export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1)
    throw new InvalidOptionError(
      'createHookEngine',
      'concurrency',
      `concurrency must be a positive integer, got ${limit}.`,
    );
  let active = 0;
  // A queue read from `head` rather than with shift(): shift() moves every waiter, so an emit of
  // 20 000 non-blocking hooks spent most of its time there (quadratic in the hooks waiting).
  let waiting: Array<() => void> = [];
  let head = 0;
  // A finishing task hands its slot straight to the next waiter, so no newcomer can slip in between.
  const release = (): void => {
    const next = waiting[head];
    if (next === undefined) {
      active--;
      return;
    }
    waiting[head++] = NOBODY;
    // Drop the slots already served once they are most of the array, so memory follows the queue.
    if (head > 1_024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
    next();
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
