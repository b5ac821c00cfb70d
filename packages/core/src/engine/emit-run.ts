import type { EventContext } from '../context/event-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { HookDecision } from '../decisions/decision.ts';
import type { EmitObservation } from '../plugins/engine-observer.ts';
import type { DisabledTarget } from '../plugins/journal.ts';
import type { InstalledType } from '../plugins/runner-registry.ts';
import type { DeliveryCall } from '../plugins/runner.ts';
import type { SandboxSession } from '../plugins/sandbox-provider.ts';
import type { EventSpec } from '../presets/preset.ts';
import { deliveryCall } from './delivery-attempts.ts';
import type { HeldEntry } from './durable-entries.ts';
import type { HookReport } from './emit-outcome.ts';
import { failureWarnings, reportWarnings } from './emit-warnings.ts';
import type { EngineState, HookLane } from './engine-state.ts';
import { EmitPayload } from './hook-call.ts';
import { failedReport, skippedReport } from './hook-reports.ts';
import { honoured } from './honoured-decision.ts';
import { quietly } from './quietly.ts';
import { runHook, type HookRunScope } from './run-hook.ts';
import type { RunFacts } from './sandbox-sessions.ts';

/** Where an emit comes from, when it is not the host's `emit` call. */
export type EmitOrigin =
  /** One of the engine's own sandbox events: its hooks run in the engine's own lane, sandboxed ones in `sandbox`. */
  | { readonly sandbox: SandboxSession; readonly resumed?: undefined }
  /** A journal entry `resume` claimed: only the durable non-blocking hooks run, then the entry is finished. */
  | { readonly resumed: HeldEntry; readonly sandbox?: undefined };

/**
 * What the hooks of one emit share — its context (and its JSON, made once), lane, sandbox,
 * observation and journal entry — and what they decided so far. One object per emit rather than a
 * closure per step: for an in-memory hook this bookkeeping is most of the cost.
 */
export class EmitRun extends EmitPayload implements HookRunScope {
  readonly engine: EngineState;
  readonly event: EventSpec;
  readonly selected: readonly HookDefinition[];
  readonly origin: EmitOrigin | undefined;
  /** The host's lane, or the engine's own for its sandbox events. */
  readonly lane: HookLane;
  /** The session of one of the engine's own sandbox events: its sandboxed hooks run there. */
  readonly sandbox: SandboxSession | undefined;
  readonly observation: EmitObservation | undefined;
  /** Set once the durable hooks are journaled: the processes they start are recorded in the entry. */
  held: HeldEntry | undefined;
  /** The first blocking hook that decided `block`, once one did. */
  blockedBy: string | undefined;
  /** Filled in as the hooks end; the non-blocking hooks still running get their `pending` report. */
  readonly reports: HookReport[];
  readonly warnings: string[] = [];
  /** The blocking hooks' honoured decisions, in the order they were decided, and who made each. */
  readonly effective: HookDecision[] = [];
  readonly deciders: string[] = [];
  /** Position → the position of the first identical hook, for an event whose identical hooks run once. */
  readonly #duplicates: Map<number, number> | undefined;

  constructor(
    engine: EngineState,
    event: EventSpec,
    selected: readonly HookDefinition[],
    context: EventContext,
    origin: EmitOrigin | undefined,
    observation: EmitObservation | undefined,
  ) {
    super(context, engine.preset);
    this.engine = engine;
    this.event = event;
    this.selected = selected;
    this.origin = origin;
    this.lane = origin?.sandbox === undefined ? engine.hostHooks : engine.ownHooks;
    this.sandbox = origin?.sandbox;
    this.observation = observation;
    this.held = origin?.resumed;
    this.reports = new Array<HookReport>(selected.length);
    this.#duplicates = event.runIdenticalOnce === true ? identicalHooks(selected) : undefined;
  }

  /** Whether the hook at `position` runs; one identical to an earlier hook gets its skipped report instead. */
  runs(position: number): boolean {
    const first = this.#duplicates?.get(position);
    if (first === undefined) return true;
    this.reports[position] = skippedReport(
      this.selected[position]!,
      `identical to "${this.selected[first]!.name}", which runs instead (identical hooks run once)`,
    );
    return false;
  }

  /** Records a blocking hook's report and the decision the event honours; the first `block` blocks the event. */
  decide(position: number, report: HookReport): void {
    this.reports[position] = report;
    this.warnings.push(...reportWarnings(report));
    if (report.status !== 'ok') this.warnings.push(...failureWarnings(report));
    const decision = honoured(report, this.event, this.warnings);
    this.effective.push(decision);
    this.deciders.push(report.name);
    if (decision.decision === 'block') this.blockedBy ??= report.name;
  }

  /** Reports the hook at `position` skipped because an earlier blocking hook blocked the event. */
  skipBlocked(position: number): void {
    this.reports[position] = skippedReport(this.selected[position]!, `"${this.blockedBy}" blocked the event`);
  }

  /**
   * Runs one hook of the emit, watched by the emit's observation, if any. A durable hook of a held
   * entry whose target was disabled (an endpoint that answered 410 Gone) is not run: it is given up on.
   */
  run(hook: HookDefinition): HookReport | Promise<HookReport> {
    // An invalid hook a tolerant preset kept: it fails where it was meant to run.
    if (hook.broken !== undefined) return failedReport(hook, 'failed', hook.broken, performance.now());
    const durability = this.engine.durability;
    if (this.held !== undefined && hook.durable && !hook.blocking && durability !== undefined) {
      const target = this.targetOf(hook);
      if (target !== undefined)
        return durability
          .disabledTarget(target)
          .then((disabled) => (disabled === undefined ? this.#run(hook) : disabledReport(hook, disabled)));
    }
    return this.#run(hook);
  }

  /** A hook's target as its type names it (`identity`: an HTTP hook's URL), when the type names one. */
  targetOf(hook: HookDefinition): string | undefined {
    const type = this.engine.registry.find(hook.type)?.type;
    if (type?.identity === undefined) return undefined;
    try {
      return type.identity(hook.options);
    } catch {
      return undefined;
    }
  }

  #run(hook: HookDefinition): HookReport | Promise<HookReport> {
    const installed = this.engine.registry.find(hook.type)!;
    const observation = this.observation;
    if (observation === undefined) return runHook(hook, installed, this, undefined);
    const watched = quietly(() => observation.hookStarted(hook, this.context));
    const running = runHook(hook, installed, this, watched?.traceContext);
    // Registered before the emit's own continuation, so a hook's observation ends before its emit's.
    if (watched !== undefined) {
      if (running instanceof Promise) void running.then((report) => quietly(() => watched.ended(report)));
      else quietly(() => watched.ended(running));
    }
    return running;
  }

  // A sandboxed hook runs in its run's sandbox session (the given one for the engine's own sandbox events).
  openSandbox(hook: HookDefinition, installed: InstalledType): (() => Promise<SandboxSession>) | undefined {
    if (!hook.sandbox || !installed.type.usesSandbox) return undefined;
    const { sandbox } = this;
    if (sandbox !== undefined) return () => Promise.resolve(sandbox);
    const { sessions } = this.engine;
    if (sessions === undefined) return undefined;
    const { context } = this;
    return () =>
      sessions.get(
        String(context[this.engine.preset.sessionField]),
        runFacts(context, this.engine.preset.sandboxEvents?.carries ?? []),
      );
  }

  deliveryFor(hook: HookDefinition): DeliveryCall | undefined {
    const entry = this.held;
    if (entry === undefined || !hook.durable || hook.blocking) return undefined;
    return deliveryCall(entry.messageKey(hook.name), entry.entry, hook.name, Date.now());
  }

  onProcessStarted(hook: HookDefinition): ((pid: number) => Promise<boolean>) | undefined {
    const entry = hook.durable ? this.held : undefined;
    return entry === undefined ? undefined : (pid: number) => entry.attach(pid);
  }
}

// A durable hook whose target is disabled: given up on at once, so the entry is dead-lettered for a retry once it is re-enabled.
function disabledReport(hook: HookDefinition, disabled: DisabledTarget): HookReport {
  const reason = `${disabled.target} is disabled since ${new Date(disabled.disabledAt).toISOString()} (${disabled.reason}); re-enable it and retry its dead letters with: hookline journal retry --endpoint ${disabled.target}`;
  return { ...skippedReport(hook, reason), delivery: { next: 'dead', reason } };
}

// Position → the position of the first selected hook with the same type and keys.
function identicalHooks(selected: readonly HookDefinition[]): Map<number, number> {
  const first = new Map<string, number>();
  const duplicates = new Map<number, number>();
  for (const [position, hook] of selected.entries()) {
    // An invalid stand-in is never identical to anything: each one reports its own problem.
    if (hook.broken !== undefined) continue;
    const key = `${hook.type}\u0000${hook.blocking}\u0000${JSON.stringify(hook.options)}`;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, position);
    else duplicates.set(position, earlier);
  }
  return duplicates;
}

// The fields of the emit that opens a run's sandbox which its sandbox events carry too.
function runFacts(context: Readonly<Record<string, unknown>>, carries: readonly string[]): RunFacts {
  const facts: Record<string, unknown> = {};
  for (const field of ['cwd', ...carries]) if (context[field] !== undefined) facts[field] = context[field];
  return facts;
}
