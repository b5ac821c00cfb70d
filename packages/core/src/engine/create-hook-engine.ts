import { checkContext, normalizeContext } from '../context/normalize-context.ts';
import { requiredFields } from '../context/context-field.ts';
import type { HookConfig } from '../config/hook-definition.ts';
import { nearestWord } from '../config/nearest-word.ts';
import { EngineClosedError } from '../errors/engine-closed-error.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import { PluginError } from '../errors/plugin-error.ts';
import { UnknownEventError } from '../errors/unknown-event-error.ts';
import type { EngineObserver } from '../plugins/engine-observer.ts';
import type { Journal } from '../plugins/journal.ts';
import { createJournalSeal, type JournalKey } from '../plugins/journal-seal.ts';
import type { Runner } from '../plugins/runner.ts';
import { createInFlight } from '../plugins/create-in-flight.ts';
import { createRunnerRegistry } from '../plugins/runner-registry.ts';
import { interfaceVersionProblem } from '../plugins/interface-version.ts';
import type { SandboxProvider } from '../plugins/sandbox-provider.ts';
import { matcherFieldsOf, type Preset } from '../presets/preset.ts';
import { builtInPresets } from '../presets/built-in-presets.ts';
import type { PresetRegistry } from '../presets/preset-registry.ts';
import { explainHook, type HookSelection } from '../selection/explain-selection.ts';
import { createLimiter } from './create-limiter.ts';
import { createDurability, type Durability } from './durable-entries.ts';
import type { EmitOutcome, PendingEmitOutcome } from './emit-outcome.ts';
import { createHookDeadlines } from './hook-deadlines.ts';
import { createHookLane, eventRoutes, type EngineState, type EventRoute } from './engine-state.ts';
import { resumeJournal, type ResumeOptions, type ResumeReport } from './resume-journal.ts';
import { runEmit } from './run-emit.ts';
import { sandboxLifecycle } from './sandbox-lifecycle.ts';
import { createSandboxSessions } from './sandbox-sessions.ts';

/** What a hook engine is made of. */
export interface HookEngineOptions {
  /** The loaded configuration (`loadConfig`). */
  readonly config: HookConfig;
  /** The runners for the config's hook types — the same ones it was loaded with. */
  readonly runners: readonly Runner[];
  /** The presets of the host's plugins the config was loaded with (`LoadConfigOptions.presets`). */
  readonly presets?: readonly Preset[];
  /** The sandbox provider named by `[sandbox] provider`; needed only when a hook runs sandboxed. */
  readonly sandbox?: SandboxProvider;
  /** How many non-blocking hooks run at once, across all emits of this engine. Default 8. */
  readonly concurrency?: number;
  /**
   * How long `close()` waits for runners to wind down after aborting them (default 10 000 ms). A
   * runner that ignores its abort signal cannot hold `close()` longer than this.
   */
  readonly closeGraceMs?: number;
  /**
   * Told the final outcome of each event the engine emits by itself — `sandbox_ready` after a run's
   * sandbox opened, `sandbox_cleanup` before it is disposed — so a host can show or log them.
   */
  readonly onInternalEmit?: (outcome: EmitOutcome) => void;
  /**
   * Where durable hooks are journaled (`sqliteJournal({ path })` from `@hookline/journal-sqlite`).
   * Required when the config has a durable hook: every `task` point, `durable = true` elsewhere.
   */
  readonly journal?: Journal;
  /**
   * Required with a journal: the secret that seals what the engine journals (HMAC-SHA256 over each
   * entry's scope, event, context and hooks, and over each process group it records), so that an
   * entry someone else wrote into the journal — a hook, another user, a journal copied from
   * elsewhere — is never run and never makes the engine signal a process: it is dead-lettered and
   * reported in `resume()`'s `refused`. At least 32 random bytes, or a function that reads them on
   * first use; every engine sharing a journal needs the same key. The CLI keeps one per user in
   * `$XDG_STATE_HOME/hookline/journal.key` (or takes `HOOKLINE_JOURNAL_KEY`).
   *
   * `false` trusts the journal as it is — only for a journal nothing else can write (a
   * `memoryJournal()`, a file no hook can reach): entries run unchecked, and recorded process groups
   * are still signalled only when their leader is the very process recorded.
   */
  readonly journalKey?: JournalKey | false;
  /**
   * How long this engine's hold on a journal entry lasts without renewal (default 30 000 ms); it is
   * renewed every third of that while the entry's hooks run. A crashed engine's entries become
   * claimable when it expires — at once where the journal can tell that the holder's process is gone.
   */
  readonly journalLeaseMs?: number;
  /**
   * Told when each emit and each hook run starts and ends — `otelObserver()` from `@hookline/otel`
   * makes OpenTelemetry spans of them and passes the trace context on to hooks. Without one, the
   * engine does no telemetry work at all.
   */
  readonly observer?: EngineObserver;
  /**
   * What `emit` does with durable hooks: `run` them (default: journaled, then run here), or only
   * `record` them — journaled for any engine sharing the journal to claim (`resume({ signal })`,
   * `hookline worker`), and reported as skipped here. Without a journal, durable hooks run here.
   */
  readonly durableHooks?: 'run' | 'record';
}

/** Runs the configured hooks of emitted events and merges their decisions. */
export interface HookEngine {
  readonly config: HookConfig;
  readonly preset: Preset;
  /**
   * Runs the hooks selected for `event` and resolves to the merged outcome as soon as the blocking
   * phase is over; `outcome.settled` resolves when the non-blocking hooks are done too. Hooks that
   * block, fail or time out are reported in the outcome; `emit` rejects only on misuse: an unknown
   * event, a context that is not an object, a closed engine.
   */
  emit(event: string, context: object): Promise<PendingEmitOutcome>;
  /** Every configured hook, whether it would be selected for this event and context, and why. */
  explain(event: string, context: object): HookSelection[];
  /**
   * Runs the durable hooks the journal still holds — emits whose hooks did not all run because a
   * process was killed or closed — and clears each entry after its hooks ran, whatever their status.
   * Hosts call it at start. Hooks run at least once, so they must be safe to run twice. Resolves
   * when no entry is left to claim; rejects when the journal cannot be read (a `JournalError`).
   * With `options.signal` it works as a long-running worker instead, until the signal aborts.
   */
  resume(options?: ResumeOptions): Promise<ResumeReport>;
  /** Disposes the sandbox session of a finished run (the session key: `run_id`, `task`, `session_id`). */
  endRun(runId: string): Promise<void>;
  /** Aborts hooks in flight, waits for them to wind down, disposes sessions and plugins. Idempotent. */
  close(): Promise<void>;
}

/**
 * Creates a hook engine. Checks up front that every hook's type has a runner and that sandboxed
 * hooks have the configured provider, so misconfiguration fails here rather than mid-run.
 *
 * The methods are thin: they hand the shared parts to module-level functions (`routeFor`,
 * `resumeWith` and `closeEngine` below). An emit finds its route, checks its context, and
 * `runEmit` (run-emit.ts) takes it through its phases: select, run the blocking hooks, plan the
 * later ones, record the durable ones, run the later ones, merge.
 */
export function createHookEngine(options: HookEngineOptions): HookEngine {
  const parts = assembleEngine(options);
  const { config } = options;
  // Local constants rather than property reads: `emit` is the hot path.
  const { engine, requiredContextFields } = parts;
  const { preset } = engine;
  let closing: Promise<void> | undefined;

  return {
    config,
    preset,
    // Not `async`: an event with nothing to run should resolve without extra promise hops. Misuse
    // still rejects rather than throws, as an async function would.
    emit(event, context) {
      try {
        if (closing !== undefined) throw new EngineClosedError();
        const route = routeFor(parts, event);
        checkContext(event, context, preset, requiredContextFields);
        return runEmit(engine, route, context);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    explain(event, context) {
      const route = routeFor(parts, event);
      checkContext(event, context, preset);
      const normalized = normalizeContext(event, context);
      const fields = matcherFieldsOf(preset, route.spec);
      return config.hooks.map((hook) => explainHook(hook, normalized, fields));
    },
    async resume(resumeOptions = {}) {
      if (closing !== undefined) throw new EngineClosedError();
      return resumeWith(parts, resumeOptions);
    },
    async endRun(runId) {
      await engine.sessions?.end(runId);
    },
    close() {
      closing ??= closeEngine(parts, options);
      return closing;
    },
  };
}

/** What the engine's methods share: its state, and the plugins and facts they need besides. */
interface EngineParts {
  readonly engine: EngineState;
  /** Every preset known, to name the one that has an unknown event. */
  readonly presets: PresetRegistry;
  /** The plugins `close()` closes. */
  readonly runners: readonly Runner[];
  readonly sandboxProvider: SandboxProvider | undefined;
  readonly journal: Journal | undefined;
  /** Non-blocking hooks running at once; `resume` uses it too unless told otherwise. */
  readonly concurrency: number;
  /** Read once: every emit checks them, and an emit with nothing to run costs little else. */
  readonly requiredContextFields: readonly string[];
}

/** Checks the options against the config and builds the engine's state. */
function assembleEngine(options: HookEngineOptions): EngineParts {
  const { config } = options;
  const presets = builtInPresets.with(options.presets ?? []);
  const preset = presets.get(config.preset);
  if (preset === undefined)
    throw new PluginError(
      `The config uses preset "${config.preset}", which neither this @hookline/core nor the presets given know; pass the presets the config was loaded with.`,
    );
  const registry = createRunnerRegistry(options.runners);
  const sandboxProvider = checkPlugins(config, registry, options.sandbox);
  const journal = checkJournal(config, preset, options.journal, options.journalKey);
  const concurrency = options.concurrency ?? 8;

  // Two lanes, because closing has two steps: first the hooks of host emits stop, then the engine's
  // own cleanup emits run, and only after them everything else ends.
  const deadlines = createHookDeadlines();
  const ownHooks = createHookLane(deadlines);
  // One lookup per emit finds everything known about the event ahead of time.
  const routes = eventRoutes(preset, config.hooks, config.notices ?? []);
  const engine: EngineState = {
    preset,
    registry,
    routes,
    deadlines,
    limiter: createLimiter(concurrency),
    work: createInFlight(),
    hostHooks: createHookLane(deadlines),
    ownHooks,
    // The sandbox events go through the same pipeline, handed in: sessions never import it.
    sessions:
      sandboxProvider === undefined
        ? undefined
        : createSandboxSessions(
            sandboxProvider,
            ownHooks.signal,
            sandboxLifecycle({
              preset,
              routes,
              emit: (route, context, session) => runEmit(engine, route, context, { sandbox: session }),
              onOutcome: (outcome) => options.onInternalEmit?.(outcome),
            }),
          ),
    durability: journal === undefined ? undefined : durabilityOf(journal, options),
    observer: options.observer,
  };
  return {
    engine,
    presets,
    runners: options.runners,
    sandboxProvider,
    journal,
    concurrency,
    requiredContextFields: requiredFields(preset.context),
  };
}

/** Where the engine journals its durable hooks, as the options configure it. */
function durabilityOf(journal: Journal, options: HookEngineOptions): Durability {
  return createDurability({
    journal,
    owner: `engine-${crypto.randomUUID()}`,
    leaseMs: checkLease(options.journalLeaseMs),
    recordOnly: options.durableHooks === 'record',
    seal:
      options.journalKey === false || options.journalKey === undefined
        ? undefined
        : createJournalSeal(options.journalKey),
  });
}

/** The route of `event`; throws naming the nearest known event, and a preset that has it. */
function routeFor(parts: EngineParts, event: string): EventRoute {
  const { preset, routes } = parts.engine;
  const route = routes.get(event);
  if (route === undefined) {
    const names = preset.events.map((known) => known.name);
    throw new UnknownEventError(
      event,
      preset.name,
      names,
      nearestWord(event, names),
      parts.presets.withEvent(event, preset)[0],
    );
  }
  return route;
}

/** `resume` of an open engine: nothing to do without a journal. */
function resumeWith(parts: EngineParts, options: ResumeOptions): Promise<ResumeReport> {
  const { engine, journal } = parts;
  if (engine.durability === undefined || journal === undefined)
    return Promise.resolve({ ran: [], pending: [], refused: [] });
  return resumeJournal(engine, engine.durability, journal, {
    ...options,
    concurrency: options.concurrency ?? parts.concurrency,
  });
}

/**
 * Closes in order: the host's hooks stop and wind down, then the sessions end (their cleanup emits
 * run in the engine's own lane), then that lane stops, the journal's leases end, and the plugins close.
 */
async function closeEngine(parts: EngineParts, options: HookEngineOptions): Promise<void> {
  const { engine } = parts;
  const settleWork = (): Promise<void> => waitAtMost(engine.work.settled(), options.closeGraceMs ?? 10_000);
  engine.hostHooks.stop(new EngineClosedError('the engine closed'));
  await settleWork();
  await engine.sessions?.endAll();
  engine.ownHooks.stop(new EngineClosedError('the engine closed'));
  await settleWork();
  engine.durability?.stop();
  await engine.durability?.idle();
  await Promise.allSettled([
    ...parts.runners.map((runner) => runner.doClose?.()),
    parts.sandboxProvider?.doClose?.(),
    parts.journal?.doClose?.(),
  ]);
}

function checkPlugins(
  config: HookConfig,
  registry: ReturnType<typeof createRunnerRegistry>,
  provider: SandboxProvider | undefined,
): SandboxProvider | undefined {
  let needsSandbox = false;
  for (const hook of config.hooks) {
    // A broken hook never runs: it needs no runner.
    if (hook.broken !== undefined) continue;
    const installed = registry.find(hook.type);
    if (installed === undefined) {
      throw new PluginError(
        `Hook "${hook.name}" has type "${hook.type}", but no runner for it was passed to createHookEngine; pass the runners the config was loaded with.`,
      );
    }
    if (hook.enabled && hook.sandbox && installed.type.usesSandbox) needsSandbox = true;
  }
  const providerMismatch = provider === undefined ? undefined : interfaceVersionProblem('sandbox provider', provider);
  if (providerMismatch !== undefined) throw new PluginError(`${providerMismatch}; install versions that match.`);
  if (provider !== undefined && provider.name !== config.sandbox.provider) {
    throw new PluginError(
      `The config selects sandbox provider "${config.sandbox.provider}", but the engine was given "${provider.name}"; pass the provider the config names.`,
    );
  }
  if (needsSandbox && provider === undefined) {
    const hint =
      config.sandbox.provider === 'local'
        ? 'pass localSandbox() from @hookline/runner-command'
        : `pass the "${config.sandbox.provider}" provider (e.g. dockerSandbox() from @hookline/sandbox-docker)`;
    throw new PluginError(
      `Some hooks run sandboxed (sandbox = true is the default), but no sandbox provider was given: ${hint}, or set sandbox = false on those hooks.`,
    );
  }
  return provider;
}

function checkJournal(
  config: HookConfig,
  preset: Preset,
  journal: Journal | undefined,
  key: JournalKey | false | undefined,
): Journal | undefined {
  const journalMismatch = journal === undefined ? undefined : interfaceVersionProblem('journal', journal);
  if (journalMismatch !== undefined) throw new PluginError(`${journalMismatch}; install versions that match.`);
  if (journal !== undefined && key === undefined) {
    throw new PluginError(
      `The engine was given journal ${journal.name} but no journalKey: pass journalKey (at least 32 random bytes, the same for every engine sharing the journal; it seals entries so that nothing else can make the engine run or kill on their behalf), or journalKey: false for a journal nothing else can write (e.g. memoryJournal()).`,
    );
  }
  const durable = config.hooks.filter((hook) => hook.enabled && hook.durable).map((hook) => `"${hook.name}"`);
  if (durable.length > 0 && journal === undefined) {
    const byDefault = preset.events.some((event) => event.durable === true)
      ? `, or by default in preset "${preset.name}"`
      : '';
    const named =
      durable.length > 3 ? `${durable.slice(0, 3).join(', ')} and ${durable.length - 3} more` : durable.join(', ');
    throw new PluginError(
      `Hook${durable.length === 1 ? '' : 's'} ${named} ${durable.length === 1 ? 'is' : 'are'} durable (journaled before emit returns: durable = true${byDefault}), but no journal was passed to createHookEngine: pass journal: sqliteJournal({ path: ".hookline/journal.db" }) from @hookline/journal-sqlite (or another Journal), or set durable = false on them.`,
    );
  }
  return journal;
}

function checkLease(leaseMs: number | undefined): number {
  if (leaseMs === undefined) return 30_000;
  if (!Number.isInteger(leaseMs) || leaseMs < 3)
    throw new InvalidOptionError(
      'createHookEngine',
      'journalLeaseMs',
      `journalLeaseMs must be an integer of at least 3 (milliseconds), got ${leaseMs}.`,
    );
  return leaseMs;
}

async function waitAtMost(work: Promise<unknown>, milliseconds: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, milliseconds)))]);
  clearTimeout(timer);
}
