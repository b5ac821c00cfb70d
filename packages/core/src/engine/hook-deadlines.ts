/** A running hook the engine watches, from its start until its report is final. */
export interface Watched {
  /** When the hook's `timeout_ms` runs out, on the `performance.now()` clock. */
  readonly due: number;
  /** The lane the hook runs in; stopping the lane ends it. */
  readonly lane: object;
  /** Ends the hook: `true` when its deadline passed, `false` when its lane stopped. Called at most once. */
  readonly end: (timedOut: boolean) => void;
  previous: Watched | undefined;
  next: Watched | undefined;
  /** The queue the hook is in, until it is released or ended. */
  queue: WatchQueue | undefined;
}

/** Hooks with the same timeout, in start order — so also in deadline order. */
interface WatchQueue {
  first: Watched | undefined;
  last: Watched | undefined;
}

/** Every running hook's deadline, behind one timer for the whole engine. */
export interface HookDeadlines {
  /** Watches a hook that started at `started` (`performance.now()`); `end` runs if its deadline passes or its lane stops first. */
  watch(lane: object, timeoutMs: number, started: number, end: (timedOut: boolean) => void): Watched;
  /** The hook is over by itself: forget it. Idempotent. */
  release(watched: Watched): void;
  /** Ends every watched hook of `lane` (with `end(false)`). */
  stopLane(lane: object): void;
}

// Node clamps longer delays to 1 ms; a later deadline is simply re-armed when the timer fires.
const LONGEST_DELAY = 2_147_483_647;

/**
 * Creates the deadline watch of one engine. A timer per hook would cost a timer list insertion and
 * removal per run; here hooks only join and leave a queue, and one timer is armed for the earliest
 * deadline. A deadline that comes later than the armed one needs nothing; a hook that ends early
 * leaves the timer as it is, and the timer, when it fires, finds nothing due and arms for the next.
 *
 * Queues are linked lists keyed by timeout, not Sets: a long-lived Set whose size swings reallocates
 * its table as it grows and shrinks, and on a long stream those tables pile up in the old generation.
 */
export function createHookDeadlines(): HookDeadlines {
  const queues = new Map<number, WatchQueue>();
  let watching = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedFor = Number.POSITIVE_INFINITY;

  const arm = (due: number): void => {
    if (timer !== undefined) clearTimeout(timer);
    armedFor = due;
    timer = setTimeout(fire, Math.min(LONGEST_DELAY, Math.max(1, Math.ceil(due - performance.now()))));
  };
  // The armed timer keeps the process alive only while a hook is watched, as a timer per hook did.
  const hold = (held: boolean): void => {
    const handle = timer as { ref?: () => unknown; unref?: () => unknown } | undefined;
    if (handle === undefined) return;
    if (held) handle.ref?.();
    else if (handle.unref !== undefined) handle.unref();
    else {
      // A runtime whose timers cannot be unreferenced (numbers in Deno): drop the timer instead.
      clearTimeout(timer);
      timer = undefined;
      armedFor = Number.POSITIVE_INFINITY;
    }
  };
  const remove = (watched: Watched): void => {
    const queue = watched.queue;
    if (queue === undefined) return;
    unlink(queue, watched);
    if (--watching === 0) hold(false);
  };
  function fire(): void {
    timer = undefined;
    armedFor = Number.POSITIVE_INFINITY;
    const next = endExpired(queues, performance.now(), remove);
    // A hook started by an `end` above may have armed the timer already, for a later deadline.
    if (next < armedFor) arm(next);
  }

  return {
    watch(lane, timeoutMs, started, end) {
      let queue = queues.get(timeoutMs);
      if (queue === undefined) queues.set(timeoutMs, (queue = { first: undefined, last: undefined }));
      const watched = append(queue, {
        due: started + timeoutMs,
        lane,
        end,
        previous: queue.last,
        next: undefined,
        queue,
      });
      if (watching++ === 0) hold(true);
      if (watched.due < armedFor) arm(watched.due);
      return watched;
    },
    release: remove,
    stopLane(lane) {
      for (const watched of watchedIn(queues, lane)) {
        remove(watched);
        watched.end(false);
      }
    },
  };
}

/** Ends every hook whose deadline passed by `now`; returns the earliest deadline left. */
function endExpired(queues: ReadonlyMap<number, WatchQueue>, now: number, remove: (watched: Watched) => void): number {
  let next = Number.POSITIVE_INFINITY;
  for (const queue of queues.values()) {
    while (queue.first !== undefined && queue.first.due <= now) {
      const expired = queue.first;
      remove(expired);
      expired.end(true);
    }
    if (queue.first !== undefined && queue.first.due < next) next = queue.first.due;
  }
  return next;
}

/** Puts `watched` (whose `previous` is the queue's last) at the end of its queue. */
function append(queue: WatchQueue, watched: Watched): Watched {
  if (queue.last === undefined) queue.first = watched;
  else queue.last.next = watched;
  queue.last = watched;
  return watched;
}

/** Takes `watched` out of its queue, leaving it linked to nothing. */
function unlink(queue: WatchQueue, watched: Watched): void {
  watched.queue = undefined;
  if (watched.previous === undefined) queue.first = watched.next;
  else watched.previous.next = watched.next;
  if (watched.next === undefined) queue.last = watched.previous;
  else watched.next.previous = watched.previous;
  watched.previous = watched.next = undefined;
}

/** The hooks of one lane in every queue, collected before any is ended (ending one may start others). */
function watchedIn(queues: ReadonlyMap<number, WatchQueue>, lane: object): Watched[] {
  const found: Watched[] = [];
  for (const queue of queues.values()) {
    for (let watched = queue.first; watched !== undefined; watched = watched.next)
      if (watched.lane === lane) found.push(watched);
  }
  return found;
}
