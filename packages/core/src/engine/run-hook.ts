import type { HookDefinition } from '../config/hook-definition.ts';
import { clipText, MAX_REASON_CHARACTERS } from '../decisions/clip-text.ts';
import type { HookDecision } from '../decisions/decision.ts';
import { parseDecision } from '../decisions/parse-decision.ts';
import type { InstalledType } from '../plugins/runner-registry.ts';
import type { RunResult } from '../plugins/runner.ts';
import type { SandboxSession } from '../plugins/sandbox-provider.ts';
import type { Preset } from '../presets/preset.ts';
import type { HookReport, HookStatus } from './emit-outcome.ts';
import { HookCall, type EmitPayload } from './hook-call.ts';

/** The engine's parts running a hook needs; built once per engine. */
export interface HookRunScope {
  readonly preset: Preset;
  /** Aborted when the engine closes. */
  readonly engineSignal: AbortSignal;
  /** Hooks running now, each as the function that ends it; the engine calls them all on close. */
  readonly live: Set<() => void>;
  /** Keeps the runner's promise so `close()` can wait for work that outlives its deadline. */
  readonly track: (work: Promise<unknown>) => void;
}

// Shared abort reasons: building an Error (and its stack) per hook would dominate in-memory hooks.
const HOOK_OVER = new Error('the hook is over');
const ENGINE_CLOSED = new Error('the engine closed');

/**
 * Runs one hook and turns whatever happens into a report: the runner's answer, a failure (a thrown
 * error, an invalid result, an unopenable sandbox), the deadline, or the engine closing. A failed or
 * timed-out hook gets its `on_error` decision. Whatever ends the hook first decides its report;
 * a result that arrives later is ignored, and the runner's signal is aborted so it stops.
 */
export function runHook(
  hook: HookDefinition,
  installed: InstalledType,
  payload: EmitPayload,
  scope: HookRunScope,
  openSandbox: (() => Promise<SandboxSession>) | undefined,
  traceContext?: Readonly<Record<string, string>>,
  onProcessStarted?: (pid: number) => void,
): Promise<HookReport> {
  if (scope.engineSignal.aborted) return Promise.resolve(skippedReport(hook, 'the engine closed before the hook started'));
  const started = performance.now();
  if (openSandbox === undefined) return startHook(hook, installed, payload, scope, undefined, started, traceContext, onProcessStarted);
  return openSandbox().then(
    (session) => startHook(hook, installed, payload, scope, session, started, traceContext, onProcessStarted),
    (error: unknown) => failedReport(hook, 'failed', `the run's sandbox is not available: ${messageOf(error)}`, started),
  );
}

function startHook(
  hook: HookDefinition,
  installed: InstalledType,
  payload: EmitPayload,
  scope: HookRunScope,
  sandbox: SandboxSession | undefined,
  started: number,
  traceContext: Readonly<Record<string, string>> | undefined,
  onProcessStarted: ((pid: number) => void) | undefined,
): Promise<HookReport> {
  if (scope.engineSignal.aborted) return Promise.resolve(skippedReport(hook, 'the engine closed before the hook started'));
  const call = new HookCall(payload, hook.timeoutMs, scope.preset, sandbox, traceContext, onProcessStarted);
  return new Promise<HookReport>((resolve) => {
    let done = false;
    // The report is settled before the signal aborts, so nothing a runner does on abort can change it.
    const finish = (report: HookReport, reason: unknown): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      scope.live.delete(stop);
      resolve(report);
      call.abort(reason);
    };
    const stop = (): void => finish(failedReport(hook, 'failed', 'the engine closed while the hook ran', started), ENGINE_CLOSED);
    const timer = setTimeout(() => {
      const error = `hook timed out after ${hook.timeoutMs} ms`;
      finish(failedReport(hook, 'timed_out', error, started), new Error(error));
    }, hook.timeoutMs);
    scope.live.add(stop);

    let work: Promise<RunResult>;
    try {
      work = Promise.resolve(installed.type.doRun(hook, call));
    } catch (error) {
      work = Promise.reject(error);
    }
    scope.track(work);
    const { runner } = installed;
    work.then(
      (result) => finish(resultReport(hook, result, runner.name, started), HOOK_OVER),
      (error: unknown) => finish(failedReport(hook, 'failed', `runner "${runner.name}" threw: ${messageOf(error)}`, started), HOOK_OVER),
    );
  });
}

function resultReport(hook: HookDefinition, result: RunResult, runnerName: string, started: number): HookReport {
  if (result?.status === 'failed') {
    return failedReport(hook, 'failed', typeof result.error === 'string' && result.error !== '' ? result.error : 'the hook failed', started, result);
  }
  const decision = result?.status === 'ok' ? parseDecision(result.decision) : undefined;
  if (decision === undefined) {
    return failedReport(hook, 'failed', `runner "${runnerName}" returned an invalid result: ${safeJson(result)}`, started);
  }
  if (decision.reason !== undefined && decision.reason.length > MAX_REASON_CHARACTERS) {
    return report(hook, 'ok', { ...decision, reason: clipText(decision.reason) }, started, result);
  }
  return report(hook, 'ok', decision, started, result);
}

function failedReport(hook: HookDefinition, status: 'failed' | 'timed_out', error: string, started: number, result?: RunResult): HookReport {
  const clipped = clipText(error);
  return report(hook, status, { decision: hook.onError, reason: clipped }, started, result, clipped);
}

/** The report of a selected hook that never ran, and why. */
export function skippedReport(hook: HookDefinition, because: string): HookReport {
  return { name: hook.name, type: hook.type, blocking: hook.blocking, status: 'skipped', skipped_because: because };
}

function report(hook: HookDefinition, status: HookStatus, decision: HookDecision, started: number, result?: RunResult, error?: string): HookReport {
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
    for (const key of Object.keys(details)) {
      if (!(key in core) && key !== 'error' && key !== 'warnings') core[key] = details[key];
    }
  }
  if (error !== undefined) core['error'] = error;
  if (result?.warnings !== undefined && result.warnings.length > 0) core['warnings'] = result.warnings.map((warning) => clipText(String(warning)));
  return core as HookReport;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
