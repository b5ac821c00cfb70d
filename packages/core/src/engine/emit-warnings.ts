import type { HookReport } from './emit-outcome.ts';

/**
 * A hook's own warnings (an answer field ignored, output cut at the cap) concern the whole outcome:
 * a host or a person reading only the outcome's warnings must see them too.
 */
export function reportWarnings(report: HookReport): string[] {
  return report.warnings === undefined ? [] : report.warnings.map((warning) => `hook "${report.name}": ${warning}`);
}

/** A failure that the policy lets pass is still a failure: say so at the top of the outcome. */
export function failureWarnings(report: HookReport): string[] {
  if (report.status !== 'failed' && report.status !== 'timed_out') return [];
  const verb = report.status === 'failed' ? 'failed' : 'timed out';
  return [
    `hook "${report.name}" ${verb}: ${report.error ?? 'no detail'} — on_error made it "${report.decision?.decision ?? 'proceed'}"`,
  ];
}

/**
 * A non-blocking hook's decision is ignored, but a hook that answered "block" (a command that exited
 * non-zero) usually means something went wrong: say so, as for a failure.
 */
export function laterWarnings(report: HookReport): string[] {
  if (report.status === 'ok' && report.decision?.decision === 'block') {
    return [
      `hook "${report.name}" decided "block"${report.decision.reason === undefined ? '' : `: ${report.decision.reason}`} — it is non-blocking, so the event was not held back`,
    ];
  }
  return failureWarnings(report);
}
