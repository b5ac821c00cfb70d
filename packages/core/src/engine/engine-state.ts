import type { HookDefinition } from '../config/hook-definition.ts';
import type { HookDecision } from '../decisions/decision.ts';
import type { MergedExtras } from '../decisions/merge-extras.ts';
import type { InFlight } from '../plugins/create-in-flight.ts';
import type { EngineObserver } from '../plugins/engine-observer.ts';
import type { RunnerRegistry } from '../plugins/runner-registry.ts';
import type { EventSpec, Preset } from '../presets/preset.ts';
import type { Limiter } from './create-limiter.ts';
import type { Durability } from './durable-entries.ts';
import type { EmitOutcome, PendingEmitOutcome } from './emit-outcome.ts';
import type { HookDeadlines } from './hook-deadlines.ts';
import { Outcome } from './outcome.ts';
import type { SandboxSessions } from './sandbox-sessions.ts';

/**
 * Everything an engine holds for its life. `createHookEngine` builds it once; every emit, the
 * sandbox events and `resume` read it, none copies or patches it.
 */
export interface EngineState {
  readonly preset: Preset;
  readonly registry: RunnerRegistry;
  /** Every event of the preset's catalog, by name, with its enabled hooks. */
  readonly routes: ReadonlyMap<string, EventRoute>;
  /** Every running hook's deadline, behind one timer. */
  readonly deadlines: HookDeadlines;
  /** Bounds the non-blocking hooks running at once, across all emits. */
  readonly limiter: Limiter;
  /** Runner work and outcomes still settling, kept (even past their deadline) so `close()` can wait for them. */
  readonly work: InFlight;
  /** The hooks of the host's emits and of resumed journal entries: stopped first when the engine closes. */
  readonly hostHooks: HookLane;
  /** The hooks of the engine's own sandbox events: stopped only after the sessions were cleaned up. */
  readonly ownHooks: HookLane;
  /** Where sandboxed hooks get their run's session; absent when the engine has no provider. */
  readonly sessions: SandboxSessions | undefined;
  /** Where durable hooks are journaled; absent when the engine has no journal. */
  readonly durability: Durability | undefined;
  /** Told about every emit and hook run; absent, it costs nothing. */
  readonly observer: EngineObserver | undefined;
}

/** Hooks that stop together: `signal` aborts when they must, and ends each one still running. */
export interface HookLane {
  readonly signal: AbortSignal;
  /** Whether `signal` has aborted: a plain field, read at every hook start (the getter costs more). */
  readonly stopped: boolean;
  /** Aborts `signal`. */
  stop(reason: unknown): void;
}

/** Creates a lane whose hooks, watched by `deadlines`, all end when it is stopped. */
export function createHookLane(deadlines: HookDeadlines): HookLane {
  const controller = new AbortController();
  const lane = {
    signal: controller.signal,
    stopped: false,
    stop(reason: unknown): void {
      lane.stopped = true;
      controller.abort(reason);
    },
  };
  controller.signal.addEventListener('abort', () => deadlines.stopLane(lane));
  return lane;
}

const NOTHING: readonly never[] = Object.freeze([]);
const PROCEED: HookDecision = Object.freeze({ decision: 'proceed' });
const NO_EXTRAS: MergedExtras = Object.freeze({});

/** What the engine knows about one event ahead of any emit. */
export interface EventRoute {
  readonly spec: EventSpec;
  /** The event's enabled hooks, in config order. */
  readonly hooks: readonly HookDefinition[];
  /** No hook of the event has a matcher: every emit selects all of `hooks`. */
  readonly unconditional: boolean;
  /** The outcome of an emit that selects no hook: immutable, so made once and shared. */
  readonly empty: EmitOutcome;
  /** `empty`, resolved. */
  readonly quiet: Promise<PendingEmitOutcome>;
  /** What every outcome's warnings begin with (`HookConfig.notices`). */
  readonly notices: readonly string[];
}

/**
 * The routes of a preset's events, each with its enabled hooks from `hooks`; `notices` (the config's)
 * head the warnings of every outcome.
 */
export function eventRoutes(
  preset: Preset,
  hooks: readonly HookDefinition[],
  notices: readonly string[] = NOTHING,
): Map<string, EventRoute> {
  const hooksByEvent = new Map<string, HookDefinition[]>();
  for (const hook of hooks) {
    if (!hook.enabled) continue;
    const list = hooksByEvent.get(hook.event) ?? [];
    list.push(hook);
    hooksByEvent.set(hook.event, list);
  }
  const routes = new Map<string, EventRoute>();
  for (const spec of preset.events) {
    if (routes.has(spec.name)) continue;
    const empty = Object.freeze(
      new Outcome(
        spec.name,
        PROCEED,
        undefined,
        NO_EXTRAS,
        NOTHING,
        notices.length === 0 ? NOTHING : Object.freeze([...notices]),
      ),
    );
    const routed = hooksByEvent.get(spec.name) ?? NOTHING;
    routes.set(spec.name, {
      spec,
      hooks: routed,
      unconditional: routed.every((hook) => hook.matcherPattern === undefined),
      empty,
      quiet: Promise.resolve(empty),
      notices,
    });
  }
  return routes;
}
