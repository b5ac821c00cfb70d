import type { GenericSchema } from 'valibot';
import type { HookDecision, OnErrorPolicy } from '../decisions/decision.ts';
import type { EventContext } from '../context/event-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { Preset } from '../presets/preset.ts';
import type { KeyRule } from './key-rule.ts';
import type { SandboxSession } from './sandbox-provider.ts';

/** The plugin interface version this core speaks. Changing `Runner`, `SandboxProvider` or `Journal` bumps it. */
export const SPECIFICATION_VERSION = 'v1';

/** A problem a runner finds in one hook's keys beyond what its schema says (e.g. `http://` with TLS on). */
export interface HookKeyProblem {
  /** The key the problem is about, so the error can point at its line. */
  readonly key: string;
  readonly message: string;
  /** How to fix it, shown after the message like core's own fixes. */
  readonly fix?: string;
}

/** What a runner declares about one hook `type` it executes. */
export interface RunnerType {
  /**
   * valibot schemas of this type's own keys (`url`, `headers`, …), merged with the common hook keys.
   * Keys whose schema is not optional are required.
   */
  readonly keys: Readonly<Record<string, GenericSchema>>;
  /** Used when a hook does not set `timeout_ms`. */
  readonly defaultTimeoutMs: number;
  /** Used when a hook does not set `on_error`: `block` fails closed, `proceed` fails open. */
  readonly defaultOnError: OnErrorPolicy;
  /** Whether hooks of this type run inside the sandbox when `sandbox = true` (HTTP hooks do not). */
  readonly usesSandbox: boolean;
  /**
   * The part of an unnamed hook's effective name after `"{event}:"`, e.g. the first 20 characters of
   * the command (SPEC §2). Defaults to the type name.
   */
  identity?(options: Readonly<Record<string, unknown>>): string;
  /**
   * Rules across keys that JSON Schema can state (`http://` needs tls = "off"): the loader checks
   * them and the config's JSON Schema carries them as `if`/`then`, so editors and the loader agree.
   */
  readonly rules?: readonly KeyRule[];
  /** Checks across keys that a schema cannot express (a `$VAR` not in `allowed_env_vars`). */
  check?(options: Readonly<Record<string, unknown>>): readonly HookKeyProblem[];
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
   */
  readonly onProcessStarted?: (pid: number) => void;
}

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
    }
  | {
      readonly status: 'failed';
      /** What went wrong and, where it helps, what to do about it. Never a secret. */
      readonly error: string;
      readonly warnings?: readonly string[];
      readonly details?: Readonly<Record<string, unknown>>;
    };

/**
 * A runner executes hooks of one or more `type`s. Runners are plain objects returned by factories
 * (`commandRunner()`, `httpRunner()`); they do no I/O until `doRun` is called.
 */
export interface Runner {
  readonly specificationVersion: typeof SPECIFICATION_VERSION;
  /** The package that provides the runner, named in errors. */
  readonly name: string;
  readonly types: Readonly<Record<string, RunnerType>>;
  /** Called by the engine, not by users. Must settle promptly once `call.signal` aborts. */
  doRun(hook: HookDefinition, call: RunCall): Promise<RunResult>;
  /** Releases pooled resources (connections, isolates) when the engine closes. */
  doClose?(): Promise<void>;
}

/** Identity helper that types a runner object and stamps the interface version. */
export function defineRunner(runner: Omit<Runner, 'specificationVersion'>): Runner {
  return { specificationVersion: SPECIFICATION_VERSION, ...runner };
}
