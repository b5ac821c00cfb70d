import type { HookDefinition } from '../config/hook-definition.ts';
import { clipText, MAX_REASON_CHARACTERS } from '../decisions/clip-text.ts';
import type { HookDecision } from '../decisions/decision.ts';
import { parseDecision } from '../decisions/parse-decision.ts';
import type { RunResult } from '../plugins/runner.ts';
import type { HookReport, HookStatus } from './emit-outcome.ts';

// Every hook report of an outcome is made here, whatever became of the hook.

/** The report of a selected hook that has not ended yet (a non-blocking hook when `emit` resolves). */
export function pendingReport(hook: HookDefinition): HookReport {
  return { name: hook.name, type: hook.type, blocking: hook.blocking, status: 'pending' };
}

/** The report of a selected hook that never ran, and why. */
export function skippedReport(hook: HookDefinition, because: string): HookReport {
  return { name: hook.name, type: hook.type, blocking: hook.blocking, status: 'skipped', skipped_because: because };
}

/** The report of what a runner returned: its decision, or a failure when the result is invalid. */
export function resultReport(hook: HookDefinition, result: RunResult, runnerName: string, started: number): HookReport {
  if (result?.status === 'failed') {
    return failedReport(
      hook,
      'failed',
      typeof result.error === 'string' && result.error !== '' ? result.error : 'the hook failed',
      started,
      result,
    );
  }
  const decision = result?.status === 'ok' ? parseDecision(result.decision) : undefined;
  if (decision === undefined) {
    return failedReport(
      hook,
      'failed',
      `runner "${runnerName}" returned an invalid result: ${safeJson(result)}`,
      started,
    );
  }
  if (decision.reason !== undefined && decision.reason.length > MAX_REASON_CHARACTERS) {
    return report(hook, 'ok', { ...decision, reason: clipText(decision.reason) }, started, result);
  }
  return report(hook, 'ok', decision, started, result);
}

/** The report of a hook that failed or timed out: its `on_error` decision, with the error as the reason. */
export function failedReport(
  hook: HookDefinition,
  status: 'failed' | 'timed_out',
  error: string,
  started: number,
  result?: RunResult,
): HookReport {
  const clipped = clipText(error);
  return report(hook, status, { decision: hook.onError, reason: clipped }, started, result, clipped);
}

function report(
  hook: HookDefinition,
  status: HookStatus,
  decision: HookDecision,
  started: number,
  result?: RunResult,
  error?: string,
): HookReport {
  const core: Record<string, unknown> = {
    name: hook.name,
    type: hook.type,
    blocking: hook.blocking,
    status,
    decision,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
  };
  const details = result?.details;
  if (details !== undefined) {
    for (const key in details) {
      if (Object.hasOwn(details, key) && !(key in core) && key !== 'error' && key !== 'warnings')
        core[key] = details[key];
    }
  }
  if (error !== undefined) core['error'] = error;
  // A retry policy's verdict on a durable hook (see DeliveryVerdict): the engine retries or dead-letters by it.
  if (result?.delivery !== undefined) core['delivery'] = result.delivery;
  if (result?.warnings !== undefined && result.warnings.length > 0)
    core['warnings'] = result.warnings.map((warning) => clipText(String(warning)));
  return core as HookReport;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
