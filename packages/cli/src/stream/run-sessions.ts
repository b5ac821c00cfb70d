import { createInFlight } from '@hookline/core/plugin';

/** Ends each session once it is over and none of its hooks is still running. */
export interface RunSessions {
  /**
   * Records an emit of `event` for the session `key`; `settled` resolves when all its hooks are done,
   * and is absent when they were all done when it was answered.
   */
  add(key: string, event: string, settled: Promise<unknown> | undefined): void;
  /** Resolves when every session ended so far has been disposed. */
  drain(): Promise<void>;
}

/**
 * One sandbox session per session key (`run_id`, `session_id`, `task`): the
 * engine opens it on the first sandboxed hook; this ends it after one of `endEvents` (arc's
 * `run_complete`/`run_failed`, agent's `session_stop`), once every emit of the session has settled,
 * so a non-blocking hook still running in it is never cut off. A later event with the same key
 * simply opens a new session; sessions that never finish end when the engine closes.
 */
export function createRunSessions(
  endSession: (key: string) => Promise<void>,
  endEvents: readonly string[],
): RunSessions {
  const finalEvents = new Set(endEvents);
  const sessions = new Map<string, { pending: number; finished: boolean }>();
  const ending = createInFlight();
  return {
    add(key, event, settled) {
      // An emit with nothing running matters only if it ends its session.
      if (settled === undefined && !finalEvents.has(event)) return;
      let session = sessions.get(key);
      if (session === undefined) sessions.set(key, (session = { pending: 0, finished: false }));
      const current = session;
      current.pending += 1;
      if (finalEvents.has(event)) current.finished = true;
      void (settled ?? Promise.resolve()).finally(() => {
        current.pending -= 1;
        if (current.pending > 0 || !current.finished || sessions.get(key) !== current) return;
        sessions.delete(key);
        void ending.track(endSession(key).catch(() => undefined));
      });
    },
    drain: () => ending.settled(),
  };
}
