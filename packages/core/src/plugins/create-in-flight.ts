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

/** One tracked promise, linked to the others. */
interface Link {
  readonly work: Promise<unknown>;
  previous: Link | undefined;
  next: Link | undefined;
}

/**
 * Creates an empty {@link InFlight}. Settled work leaves by itself, so a long-lived host that tracks
 * every call stays small. The promises are kept in a linked list rather than a Set: a long-lived Set
 * whose size swings reallocates its table as it grows and shrinks, and on a long stream those tables
 * outlive young-generation collections and pile up in the old generation.
 */
export function createInFlight(): InFlight {
  let first: Link | undefined;
  let size = 0;
  const pending = (): Array<Promise<unknown>> => {
    const all: Array<Promise<unknown>> = [];
    for (let link = first; link !== undefined; link = link.next) all.push(link.work);
    return all;
  };
  const settled = async (): Promise<void> => {
    await Promise.allSettled(pending());
  };
  return {
    track(work) {
      const link: Link = { work, previous: undefined, next: first };
      if (first !== undefined) first.previous = link;
      first = link;
      size++;
      const forget = (): void => {
        if (link.previous === undefined) first = link.next;
        else link.previous.next = link.next;
        if (link.next !== undefined) link.next.previous = link.previous;
        size--;
      };
      work.then(forget, forget);
      return work;
    },
    get size() {
      return size;
    },
    settled,
    async idle() {
      while (size > 0) await settled();
    },
  };
}
