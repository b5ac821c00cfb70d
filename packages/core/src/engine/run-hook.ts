import type { HookDefinition } from '../config/hook-definition.ts';
import { EngineClosedError } from '../errors/engine-closed-error.ts';
import { HookStoppedError } from '../errors/hook-stopped-error.ts';
import type { InstalledType } from '../plugins/runner-registry.ts';
import type { DeliveryCall, RunResult } from '../plugins/runner.ts';
import type { SandboxSession } from '../plugins/sandbox-provider.ts';
import type { HookReport } from './emit-outcome.ts';
import type { EngineState, HookLane } from './engine-state.ts';
import { HookCall, type EmitPayload } from './hook-call.ts';
import { failedReport, resultReport, skippedReport } from './hook-reports.ts';
import { messageOf } from '../errors/message-of.ts';

// Shared abort reasons: building an Error (and its stack) per hook would dominate in-memory hooks.
const HOOK_OVER = new HookStoppedError('the hook is over');
const ENGINE_CLOSED = new EngineClosedError('the engine closed');

/** What the hooks of one emit share, as a hook run needs it: the emit's context first. */
export interface HookRunScope extends EmitPayload {
  readonly engine: EngineState;
  /** The lane the hook runs in: its signal skips or ends the hook. */
  readonly lane: HookLane;
  /** Opens the sandbox session the hook runs in; `undefined` for a hook that runs unsandboxed. */
  openSandbox(hook: HookDefinition, installed: InstalledType): (() => Promise<SandboxSession>) | undefined;
  /** Told the pid of each process the hook starts; `undefined` when nothing needs to know. */
  onProcessStarted(hook: HookDefinition): ((pid: number) => Promise<boolean>) | undefined;
  /** Which delivery of a durable hook of a journal entry this is; `undefined` for any other hook. */
  deliveryFor(hook: HookDefinition): DeliveryCall | undefined;
}

/**
 * Runs one hook and turns whatever happens into a report: the runner's answer, a failure (a thrown
 * error, an invalid result, an unopenable sandbox), the deadline, or the engine closing. A failed or
 * timed-out hook gets its `on_error` decision. Whatever ends the hook first decides its report;
 * a result that arrives later is ignored, and the runner's signal is aborted so it stops. The report
 * comes back as is, not in a promise, when it is known at once (a runner that answered synchronously).
 */
export function runHook(
  hook: HookDefinition,
  installed: InstalledType,
  scope: HookRunScope,
  traceContext: Readonly<Record<string, string>> | undefined,
): HookReport | Promise<HookReport> {
  if (scope.lane.stopped) return skippedReport(hook, 'the engine closed before the hook started');
  const started = performance.now();
  const openSandbox = scope.openSandbox(hook, installed);
  if (openSandbox === undefined) return startHook(hook, installed, scope, traceContext, undefined, started, started);
  return openSandbox().then(
    // The deadline counts from here: opening the run's sandbox is not the hook's time.
    (session) => startHook(hook, installed, scope, traceContext, session, started, performance.now()),
    (error: unknown) =>
      failedReport(hook, 'failed', `the run's sandbox is not available: ${messageOf(error)}`, started),
  );
}

function startHook(
  hook: HookDefinition,
  installed: InstalledType,
  scope: HookRunScope,
  traceContext: Readonly<Record<string, string>> | undefined,
  sandbox: SandboxSession | undefined,
  started: number,
  deadlineFrom: number,
): HookReport | Promise<HookReport> {
  const { lane, engine } = scope;
  if (lane.stopped) return skippedReport(hook, 'the engine closed before the hook started');
  const call = new HookCall(
    scope,
    hook.timeoutMs,
    engine.preset,
    sandbox,
    traceContext,
    scope.onProcessStarted(hook),
    scope.deliveryFor(hook),
  );
  const { runner } = installed;
  let answer: RunResult | PromiseLike<RunResult>;
  try {
    answer = installed.type.doRun(hook, call);
  } catch (error) {
    call.abort(HOOK_OVER);
    return thrownReport(hook, runner.name, error, started);
  }
  if (!isPromiseLike(answer)) {
    // The synchronous path: the runner answered before returning, so there is no deadline to watch.
    call.abort(HOOK_OVER);
    return resultReport(hook, answer, runner.name, started);
  }
  const work = Promise.resolve(answer);
  void engine.work.track(work);
  return new Promise<HookReport>((resolve) => {
    let done = false;
    // The report is settled before the signal aborts, so nothing a runner does on abort can change it.
    const finish = (report: HookReport, reason: unknown): void => {
      if (done) return;
      done = true;
      engine.deadlines.release(watched);
      resolve(report);
      call.abort(reason);
    };
    const watched = engine.deadlines.watch(lane, hook.timeoutMs, deadlineFrom, (timedOut) => {
      if (!timedOut)
        return finish(failedReport(hook, 'failed', 'the engine closed while the hook ran', started), ENGINE_CLOSED);
      const error = `hook timed out after ${hook.timeoutMs} ms`;
      finish(
        withDeadlineVerdict(failedReport(hook, 'timed_out', error, started), hook, installed, call),
        new HookStoppedError(error),
      );
    });
    // The engine may have closed while doRun was starting the hook.
    if (lane.stopped) watched.end(false);
    work.then(
      (result) => finish(resultReport(hook, result, runner.name, started), HOOK_OVER),
      (error: unknown) => finish(thrownReport(hook, runner.name, error, started), HOOK_OVER),
    );
  });
}

// A retried delivery ended by the deadline, not by its runner: the type says whether it is tried again.
function withDeadlineVerdict(
  report: HookReport,
  hook: HookDefinition,
  installed: InstalledType,
  call: HookCall,
): HookReport {
  if (call.delivery === undefined || installed.type.deadlineVerdict === undefined) return report;
  try {
    const verdict = installed.type.deadlineVerdict(hook, call.delivery);
    return verdict === undefined ? report : { ...report, delivery: verdict };
  } catch {
    // A runner bug here must not lose the report; without a verdict the hook counts as done.
    return report;
  }
}

function thrownReport(hook: HookDefinition, runnerName: string, error: unknown, started: number): HookReport {
  return failedReport(hook, 'failed', `runner "${runnerName}" threw: ${messageOf(error)}`, started);
}

function isPromiseLike(value: unknown): value is PromiseLike<RunResult> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
