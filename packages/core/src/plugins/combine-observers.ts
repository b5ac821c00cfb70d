import type { EmitObservation, EngineObserver, HookObservation } from './engine-observer.ts';

/**
 * One observer that tells each of `observers` everything, in the order given — for a host that
 * both traces (`otelObserver()`) and shows progress of its own. `undefined` entries are left out;
 * with none left the result is `undefined`, so the engine keeps its unobserved fast path, and a
 * single observer is returned as it is. What one observer throws is dropped and never keeps the
 * others from being told. A hook's trace context is the first one an observer gives.
 */
export function combineObservers(...observers: ReadonlyArray<EngineObserver | undefined>): EngineObserver | undefined {
  const present = observers.filter((observer): observer is EngineObserver => observer !== undefined);
  if (present.length <= 1) return present[0];
  return {
    emitStarted(start) {
      const emits = watching(present, (observer) => observer.emitStarted(start));
      if (emits.length === 0) return undefined;
      const observation: EmitObservation = {
        hookStarted(hook, context) {
          const hooks = watching(emits, (emit) => emit.hookStarted(hook, context));
          if (hooks.length === 0) return undefined;
          const traceContext = hooks.find((watched) => watched.traceContext !== undefined)?.traceContext;
          const combined: HookObservation = {
            ended: (report) => void watching(hooks, (watched) => watched.ended(report)),
          };
          return traceContext === undefined ? combined : { ...combined, traceContext };
        },
        ended: (outcome) => void watching(emits, (emit) => emit.ended(outcome)),
        failed: (error) => void watching(emits, (emit) => emit.failed(error)),
      };
      return observation;
    },
  };
}

// Calls `watch` on each, dropping what throws; returns the observations they gave.
function watching<T, R>(targets: readonly T[], watch: (target: T) => R | undefined | void): R[] {
  const given: R[] = [];
  for (const target of targets) {
    try {
      const result = watch(target);
      if (result !== undefined) given.push(result);
    } catch {
      // An observer must never change an outcome, nor silence another observer.
    }
  }
  return given;
}
