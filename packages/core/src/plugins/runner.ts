import type { HookDecision } from '../decisions/decision.ts';
import type { EventContext } from '../context/event-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { Preset } from '../presets/preset.ts';
import type { HookTypeDeclaration, HookOptions, HookOptionsSchema } from './runner-type.ts';
import type { SandboxSession } from './sandbox-provider.ts';

/**
 * The version of the `Runner` interface this core speaks. Changing `Runner`, `RunnerType`, `RunCall`
 * or `RunResult` bumps it; the sandbox provider and journal interfaces have versions of their own.
 */
export const RUNNER_INTERFACE_VERSION = 'v2';

/**
 * One hook `type` a runner executes: its declaration (keys schema, defaults, naming, checks) and the
 * function that runs its hooks. `TSchema` is inferred from `options`, so `identity`, `check` and
 * `doRun` receive the keys as the schema outputs them, with no cast or annotation.
 */
export interface RunnerType<
  TSchema extends HookOptionsSchema = HookOptionsSchema,
> extends HookTypeDeclaration<TSchema> {
  /**
   * Runs one hook of this type; `hook.options` holds its keys as validated at load. Called by the
   * engine, not by users. Must settle promptly once `call.signal` aborts. A runner that knows its
   * answer at once (an in-memory hook) may return the result itself instead of a promise: the engine
   * then reports it without watching a deadline.
   */
  doRun(hook: HookDefinition<HookOptions<TSchema>>, call: RunCall): RunResult | Promise<RunResult>;
  /**
   * Optional, for types with a retry policy. What becomes of a durable hook's delivery that the
   * engine ended at the hook's deadline — its runner had no chance to answer with
   * {@link RunResult.delivery} (a process stalled past `timeout_ms`). Without it, or when it returns
   * undefined, the hook is done, as any hook that ran.
   */
  deadlineVerdict?(hook: HookDefinition<HookOptions<TSchema>>, delivery: DeliveryCall): DeliveryVerdict | undefined;
}

/** Everything a runner gets for one hook run. */
export interface RunCall {
  readonly context: EventContext;
  /** The context as compact JSON, serialised once per emit. */
  readonly contextJson: string;
  /**
   * Aborted at the hook's deadline or when the engine closes: stop work and release resources. It is
   * also aborted once the hook is over (its report is final), so leftover listeners can clean up.
   */
  readonly signal: AbortSignal;
  /** The hook's effective timeout; the engine enforces it, runners use it for messages. */
  readonly timeoutMs: number;
  /** Event catalog and environment naming of the active preset. */
  readonly preset: Preset;
  /** The run's sandbox session when the hook is sandboxed and its type uses one. */
  readonly sandbox?: SandboxSession;
  /**
   * W3C Trace Context of the hook's span, when the host traces (an `EngineObserver` such as
   * `@hookline/otel`'s): fields by lower-case name, `traceparent` and perhaps `tracestate`. A runner
   * that reaches another process passes them on — as headers of a request, as upper-case environment
   * variables (`TRACEPARENT`) of a command — so the hook's own work joins the trace.
   */
  readonly traceContext?: Readonly<Record<string, string>>;
  /**
   * Present while a durable hook runs: a runner that starts a process group on this host passes its
   * leader's pid here (or as an exec's `onStarted`), and the engine records it in the journal entry.
   * Whoever reclaims the entry after this process died ends that group first, so the hook never runs
   * twice at the same time. Optional for runners: one that starts no process ignores it.
   *
   * It returns a promise of the recording: `true` once the group is in the journal (or could not be
   * written, which holds the hook back no further), `false` when the entry is no longer this engine's.
   * A runner that can hold its process until then (runner-command holds the command behind a gate)
   * lets the command run only after `true`, and never after `false`: a process that dies before its
   * group is recorded then leaves nothing running that the next claimant cannot find.
   */
  readonly onProcessStarted?: (pid: number) => Promise<boolean>;
  /**
   * Present while a durable hook runs from a journal entry: which delivery of one message this is.
   * A runner with a retry policy (an HTTP hook's `retry`) answers with {@link RunResult.delivery};
   * others ignore it and their hook is done once it ran, as before.
   */
  readonly delivery?: DeliveryCall;
}

/** One attempt at one durable hook of one journal entry (see {@link RunCall.delivery}). */
export interface DeliveryCall {
  /**
   * The same for every attempt of this hook for this entry, on every engine that shares the
   * journal, and different for any other entry or hook: a runner derives a stable message id from
   * it (runner-http's `webhook-id`). It names the journal, the entry and the hook; hash it before
   * sending it anywhere.
   */
  readonly messageKey: string;
  /**
   * 1 for the first attempt, +1 per attempt recorded before (deferrals do not count); a dead letter
   * retried by hand starts again at 1.
   */
  readonly attempt: number;
  /** When the first of these attempts ended (ms since the epoch), or now for the first: a retry schedule's deadline counts from here. */
  readonly firstAttemptAt: number;
}

/**
 * What should become of a durable hook after this attempt, as a runner with a retry policy says.
 * Absent: the hook is done (delivered, or failed in a way that retrying cannot fix and that is not
 * worth keeping). `retry`: run it again in `afterMs`, on any engine that shares the journal —
 * `counted: false` for a deferral that did not try (an endpoint's rate limit or open circuit).
 * `dead`: give up; the entry is dead-lettered with every attempt, and with `disable` the hook's
 * target (its type's `identity`, an HTTP hook's URL) gets no delivery until it is re-enabled.
 */
export type DeliveryVerdict =
  | { readonly next: 'retry'; readonly afterMs: number; readonly counted: boolean; readonly reason: string }
  | { readonly next: 'dead'; readonly reason: string; readonly disable?: boolean };

/**
 * The answer of one run. Expected failures are data: return `status: "failed"` with an `error` text
 * rather than throwing (a throw is reported the same way, as a runner bug).
 */
export type RunResult =
  | {
      readonly status: 'ok';
      readonly decision: HookDecision;
      readonly warnings?: readonly string[];
      /** Extra report fields, e.g. `exit_code` or `usage`; they cannot replace the core fields. */
      readonly details?: Readonly<Record<string, unknown>>;
      /** With {@link RunCall.delivery}: what becomes of the hook (see {@link DeliveryVerdict}). */
      readonly delivery?: DeliveryVerdict;
    }
  | {
      readonly status: 'failed';
      /** What went wrong and, where it helps, what to do about it. Never a secret. */
      readonly error: string;
      readonly warnings?: readonly string[];
      readonly details?: Readonly<Record<string, unknown>>;
      /** With {@link RunCall.delivery}: what becomes of the hook (see {@link DeliveryVerdict}). */
      readonly delivery?: DeliveryVerdict;
    };

/**
 * A runner executes hooks of one or more `type`s. Runners are plain objects returned by factories
 * (`commandRunner()`, `httpRunner()`), made with {@link defineRunner}; they do no I/O until a type's
 * `doRun` is called.
 */
export interface Runner {
  readonly runnerInterfaceVersion: typeof RUNNER_INTERFACE_VERSION;
  /** The package that provides the runner, named in errors. */
  readonly name: string;
  readonly types: Readonly<Record<string, RunnerType>>;
  /** Releases pooled resources (connections, isolates) when the engine closes. */
  doClose?(): Promise<void>;
}

/** What {@link defineRunner} takes: a runner without its version, each type typed by its own schema. */
export interface RunnerDeclaration<TSchemas extends Readonly<Record<string, HookOptionsSchema>>> extends Omit<
  Runner,
  'runnerInterfaceVersion' | 'types'
> {
  readonly types: { readonly [TType in keyof TSchemas]: RunnerType<TSchemas[TType]> };
}

/**
 * Makes a runner: stamps the interface version and infers each type's options from its schema, so
 * `doRun(hook)` sees `hook.options.url` as the schema's output type.
 *
 * ```ts
 * defineRunner({
 *   name: 'hookline-runner-ntfy',
 *   types: {
 *     ntfy: {
 *       options: v.object({ topic: v.string(), title: v.optional(v.string()) }),
 *       defaultTimeoutMs: 10_000,
 *       defaultOnError: 'proceed',
 *       usesSandbox: false,
 *       identity: (options) => options.topic,
 *       async doRun(hook, call) {
 *         await publish(hook.options.topic, hook.options.title, call.signal);
 *         return { status: 'ok', decision: { decision: 'proceed' } };
 *       },
 *     },
 *   },
 * });
 * ```
 */
export function defineRunner<TSchemas extends Readonly<Record<string, HookOptionsSchema>>>(
  runner: RunnerDeclaration<TSchemas>,
): Runner {
  return { runnerInterfaceVersion: RUNNER_INTERFACE_VERSION, ...runner };
}

/**
 * Types one hook type on its own, for a runner that builds its types apart (shared parts, a type
 * in its own file); `defineRunner` infers types written inline without it.
 */
export function defineRunnerType<TSchema extends HookOptionsSchema>(type: RunnerType<TSchema>): RunnerType<TSchema> {
  return type;
}
