import * as v from 'valibot';
import type { EngineObserver } from '../src/plugins/engine-observer.ts';
import { defineRunner, type RunCall, type Runner } from '../src/plugins/runner.ts';

/** An observer that writes down every call it gets, in order. */
export function recordingObserver(traceContext?: Record<string, string>): { observer: EngineObserver; seen: string[] } {
  const seen: string[] = [];
  const observer: EngineObserver = {
    emitStarted(start) {
      seen.push(
        `emit ${start.event} ${start.preset} session=${start.session ?? '-'}${start.resumed === true ? ' resumed' : ''}`,
      );
      return {
        hookStarted(hook) {
          seen.push(`hook ${hook.name}`);
          return {
            ...(traceContext === undefined ? {} : { traceContext }),
            ended: (report) => seen.push(`hook ${report.name} ${report.status}`),
          };
        },
        ended: (outcome) => seen.push(`emit ${outcome.event} ${outcome.decision} (${outcome.hooks.length} hooks)`),
        failed: (error) => seen.push(`emit failed: ${String(error)}`),
      };
    },
  };
  return { observer, seen };
}

/** An observer whose hook and emit observations throw, as a buggy one would. */
export const throwingObserver: EngineObserver = {
  emitStarted: () => ({
    hookStarted: () => {
      throw new Error('observer bug');
    },
    ended: () => {
      throw new Error('observer bug');
    },
    failed: () => undefined,
  }),
};

/** A runner of type `peek` that proceeds and writes down the trace context each call received. */
export function traceContextRunner(): { runner: Runner; received: Array<RunCall['traceContext']> } {
  const received: Array<RunCall['traceContext']> = [];
  const runner = defineRunner({
    name: 'peek',
    types: {
      peek: {
        options: v.object({}),
        defaultTimeoutMs: 1000,
        defaultOnError: 'block',
        usesSandbox: false,
        doRun: async (_hook, call) => {
          received.push(call.traceContext);
          return { status: 'ok', decision: { decision: 'proceed' } };
        },
      },
    },
  });
  return { runner, received };
}
