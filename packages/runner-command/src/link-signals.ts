/** An abort signal that follows several others, and the way to stop following them. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Detaches from the sources, so a long-lived source does not collect a listener per call. */
  unlink(): void;
}

/**
 * Follows every given signal: aborts, with that signal's reason, as soon as one of them does.
 * Unlike `AbortSignal.any`, the listeners are removed explicitly when the work is done.
 */
export function linkSignals(...sources: ReadonlyArray<AbortSignal | undefined>): LinkedSignal {
  const controller = new AbortController();
  const present = sources.filter((source): source is AbortSignal => source !== undefined);
  const listeners = present.map((source) => {
    const listener = (): void => controller.abort(source.reason);
    source.addEventListener('abort', listener, { once: true });
    return { source, listener };
  });
  const unlink = (): void => {
    for (const { source, listener } of listeners) source.removeEventListener('abort', listener);
  };
  const aborted = present.find((source) => source.aborted);
  if (aborted !== undefined) controller.abort(aborted.reason);
  return { signal: controller.signal, unlink };
}
