import type { EventContext } from '../context/event-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { HookDecision } from '../decisions/decision.ts';
import { parseDecision } from '../decisions/parse-decision.ts';
import type { Runner, RunResult } from '../plugins/runner.ts';
import type { SandboxSession } from '../plugins/sandbox-provider.ts';
import type { Preset } from '../presets/preset.ts';
import type { HookReport, HookStatus } from './emit-outcome.ts';

/** What running one hook needs from the engine. */
export interface HookRunScope {
  readonly runner: Runner;
  readonly context: EventContext;
  readonly contextJson: string;
  readonly preset: Preset;
  /** Aborted when the engine closes. */
  readonly engineSignal: AbortSignal;
  /** Opens (or reuses) the run's sandbox session; absent when the hook runs on the host. */
  readonly openSandbox?: () => Promise<SandboxSession>;
  /** Keeps the runner's promise so `close()` can wait for work that outlives its deadline. */
  readonly track: (work: Promise<unknown>) => void;
}

type Ending = { readonly kind: 'result'; readonly result: RunResult } | { readonly kind: 'deadline' } | { readonly kind: 'closed' };

/**
 * Runs one hook and turns whatever happens into a report: the runner's answer, a failure (a thrown
 * error, an invalid result, an unopenable sandbox), or the deadline. A failed or timed-out hook gets
 * its `on_error` decision. A result that arrives after the deadline is ignored.
 */
export async function runHook(hook: HookDefinition, scope: HookRunScope): Promise<HookReport> {
  if (scope.engineSignal.aborted) return skippedReport(hook, 'the engine closed before the hook started');
  const started = performance.now();
  let sandbox: SandboxSession | undefined;
  if (scope.openSandbox !== undefined) {
    try {
      sandbox = await scope.openSandbox();
    } catch (error) {
      return failedReport(hook, 'failed', `sandbox could not be opened: ${messageOf(error)}`, started);
    }
  }

  const controller = new AbortController();
  const stopOnClose = (): void => controller.abort(new Error('the engine closed'));
  scope.engineSignal.addEventListener('abort', stopOnClose, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Ending>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`hook timed out after ${hook.timeoutMs} ms`));
      resolve({ kind: 'deadline' });
    }, hook.timeoutMs);
    controller.signal.addEventListener('abort', () => resolve({ kind: scope.engineSignal.aborted ? 'closed' : 'deadline' }), { once: true });
  });
  const work = Promise.resolve().then(() =>
    scope.runner.doRun(hook, {
      context: scope.context,
      contextJson: scope.contextJson,
      signal: controller.signal,
      timeoutMs: hook.timeoutMs,
      preset: scope.preset,
      ...(sandbox === undefined ? {} : { sandbox }),
    }),
  );
  scope.track(work);
  const ending = await Promise.race([
    work.then(
      (result): Ending => ({ kind: 'result', result }),
      (error: unknown): Ending => ({ kind: 'result', result: { status: 'failed', error: `runner "${scope.runner.name}" threw: ${messageOf(error)}` } }),
    ),
    deadline,
  ]);
  clearTimeout(timer);
  scope.engineSignal.removeEventListener('abort', stopOnClose);
  // Whatever ended first, the runner must stop now; a runner that already returned ignores this.
  if (!controller.signal.aborted) controller.abort(new Error('the hook is over'));

  if (ending.kind === 'deadline') return failedReport(hook, 'timed_out', `hook timed out after ${hook.timeoutMs} ms`, started);
  if (ending.kind === 'closed') return failedReport(hook, 'failed', 'the engine closed while the hook ran', started);
  return resultReport(hook, ending.result, scope.runner.name, started);
}

function resultReport(hook: HookDefinition, result: RunResult, runnerName: string, started: number): HookReport {
  if (result?.status === 'failed') {
    return failedReport(hook, 'failed', typeof result.error === 'string' && result.error !== '' ? result.error : 'the hook failed', started, result);
  }
  const decision = result?.status === 'ok' ? parseDecision(result.decision) : undefined;
  if (decision === undefined) {
    return failedReport(hook, 'failed', `runner "${runnerName}" returned an invalid result: ${safeJson(result)}`, started);
  }
  return report(hook, 'ok', decision, started, result);
}

function failedReport(hook: HookDefinition, status: 'failed' | 'timed_out', error: string, started: number, result?: RunResult): HookReport {
  return report(hook, status, { decision: hook.onError, reason: error }, started, result, error);
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
  for (const [key, value] of Object.entries(result?.details ?? {})) {
    if (!(key in core) && key !== 'error' && key !== 'warnings') core[key] = value;
  }
  if (error !== undefined) core['error'] = error;
  if (result?.warnings !== undefined && result.warnings.length > 0) core['warnings'] = [...result.warnings];
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
