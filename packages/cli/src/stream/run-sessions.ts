/** Ends each run's sandbox session once the run is over and none of its hooks is still running. */
export interface RunSessions {
  /** Records an emit of `event` for `runId`; `settled` resolves when all its hooks are done. */
  add(runId: string, event: string, settled: Promise<unknown>): void;
  /** Resolves when every session ended so far has been disposed. */
  drain(): Promise<void>;
}

// The arc events after which a run emits nothing that needs its sandbox (SPEC §3).
const FINAL_EVENTS = new Set(['run_complete', 'run_failed']);

/**
 * One sandbox session per `run_id` (SPEC §13 `hookline run`): the engine opens it on the run's first
 * sandboxed hook; this ends it after `run_complete`/`run_failed`, once every emit of the run has
 * settled, so a non-blocking hook still running in it is never cut off. A later event of the same
 * run simply opens a new session; sessions of runs that never finish end when the engine closes.
 */
export function createRunSessions(endRun: (runId: string) => Promise<void>): RunSessions {
  const runs = new Map<string, { pending: number; finished: boolean }>();
  const ending = new Set<Promise<void>>();
  return {
    add(runId, event, settled) {
      let run = runs.get(runId);
      if (run === undefined) runs.set(runId, (run = { pending: 0, finished: false }));
      const current = run;
      current.pending += 1;
      if (FINAL_EVENTS.has(event)) current.finished = true;
      void settled.finally(() => {
        current.pending -= 1;
        if (current.pending > 0 || !current.finished || runs.get(runId) !== current) return;
        runs.delete(runId);
        const ended = endRun(runId).catch(() => undefined);
        ending.add(ended);
        void ended.then(() => ending.delete(ended));
      });
    },
    async drain() {
      await Promise.all([...ending]);
    },
  };
}
