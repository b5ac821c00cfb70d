import type { Runner } from '@hookline/core';

/** Told when a hook starts and ends; `start` returns what `end` gets back. */
export interface RunObserver {
  start(hookName: string): number;
  end(token: number): void;
}

/**
 * Wraps runners so the CLI sees which hooks are running (for the live line): the engine reports
 * hooks only when an emit ends. The wrappers keep each runner's name, types and version, and call
 * its methods on the runner itself, so runners written as classes keep their `this`.
 */
export function trackRunners(runners: readonly Runner[], observer: RunObserver): Runner[] {
  return runners.map((runner) => ({
    specificationVersion: runner.specificationVersion,
    name: runner.name,
    types: runner.types,
    async doRun(hook, call) {
      const token = observer.start(hook.name);
      try {
        return await runner.doRun(hook, call);
      } finally {
        observer.end(token);
      }
    },
    ...(runner.doClose === undefined ? {} : { doClose: () => runner.doClose!() }),
  }));
}
