import type { Runner, RunnerType } from '@hookline/core';

/** Told when a hook starts and ends; `start` returns what `end` gets back. */
export interface RunObserver {
  start(hookName: string): number;
  end(token: number): void;
}

/**
 * Wraps runners so the CLI sees which hooks are running (for the live line): the engine reports
 * hooks only when an emit ends. The wrappers keep each runner's name, types and version, and call
 * each type's `doRun` on the type itself, so types written as classes keep their `this`.
 */
export function trackRunners(runners: readonly Runner[], observer: RunObserver): Runner[] {
  return runners.map((runner) => ({
    runnerInterfaceVersion: runner.runnerInterfaceVersion,
    name: runner.name,
    types: Object.fromEntries(Object.entries(runner.types).map(([name, type]) => [name, trackType(type, observer)])),
    ...(runner.doClose === undefined ? {} : { doClose: () => runner.doClose!() }),
  }));
}

function trackType(type: RunnerType, observer: RunObserver): RunnerType {
  return {
    options: type.options,
    defaultTimeoutMs: type.defaultTimeoutMs,
    defaultOnError: type.defaultOnError,
    usesSandbox: type.usesSandbox,
    ...(type.identity === undefined ? {} : { identity: (options) => type.identity!(options) }),
    ...(type.check === undefined ? {} : { check: (options) => type.check!(options) }),
    async doRun(hook, call) {
      const token = observer.start(hook.name);
      try {
        return await type.doRun(hook, call);
      } finally {
        observer.end(token);
      }
    },
  };
}
