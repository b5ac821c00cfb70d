import type { EngineObserver } from '../src/plugins/engine-observer.ts';

/** An observer that writes down every call it gets, in order. */
export function recordingObserver(traceContext?: Record<string, string>): { observer: EngineObserver; seen: string[] } {
  const seen: string[] = [];
  const observer: EngineObserver = {
    emitStarted(start) {
      seen.push(`emit ${start.event} ${start.preset} session=${start.session ?? '-'}${start.resumed === true ? ' resumed' : ''}`);
      return {
        hookStarted(hook) {
          seen.push(`hook ${hook.name}`);
          return { ...(traceContext === undefined ? {} : { traceContext }), ended: (report) => seen.push(`hook ${report.name} ${report.status}`) };
        },
        ended: (outcome) => seen.push(`emit ${outcome.event} ${outcome.decision} (${outcome.hooks.length} hooks)`),
        failed: (error) => seen.push(`emit failed: ${String(error)}`),
      };
    },
  };
  return { observer, seen };
}
