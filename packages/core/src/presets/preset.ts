import type { DecisionKind, OnErrorPolicy } from '../decisions/decision.ts';
import type { EventContext } from '../context/event-context.ts';
import type { ConfigDialect } from '../config/config-dialect.ts';

/** One event of a catalog: whether its hooks block by default and which decisions the host obeys. */
export interface EventSpec {
  readonly name: string;
  /** Default for hooks of this event that do not set `blocking`. */
  readonly blocking: boolean;
  /**
   * Decisions other than `proceed` that the host honours for this event. Any other decision is
   * reported with a warning and counts as `proceed` (SPEC §3).
   */
  readonly honours: readonly DecisionKind[];
  /** When the host fires it, for `hookline explain`, errors and docs. */
  readonly description: string;
  /**
   * Default `on_error` of this event's hooks, which beats the hook type's default (a hook's own
   * `on_error` beats both). `agent`'s `pre_tool_use` says `block`: any failure vetoes the tool call.
   */
  readonly onError?: OnErrorPolicy;
  /**
   * The event's non-blocking hooks run one after another in config order, each starting when the
   * previous one ended (whatever its status), instead of concurrently (`task`: a point's commands).
   */
  readonly sequential?: boolean;
  /** Non-blocking hooks of this event are durable unless they say `durable = false` (`task`). */
  readonly durable?: boolean;
}

/** How a preset hands the context to a process: variable names and the context-file variable. */
export interface PresetEnvironment {
  /** The variables a command hook receives for this context (never the context file's path). */
  variables(context: EventContext, contextJson: string): Record<string, string>;
  /** Name of the variable holding the path of the context file, when the preset has one. */
  readonly contextFileVariable?: string;
}

/**
 * How a command hook's exit reads as a decision: `arc` (SPEC §7: exit 0/2 with an optional decision
 * JSON on stdout, any other code blocks) or `agent` (SPEC §12: exit 0 proceeds, anything else blocks
 * with stderr, else stdout, as the reason).
 */
export type CommandProtocol = 'arc' | 'agent';

/** Defaults a preset gives its hooks, between the hook's own keys and the hook type's defaults. */
export interface PresetHookDefaults {
  /** `sandbox` of hooks that do not set it; `true` when absent. */
  readonly sandbox?: boolean;
  /** `timeout_ms` by hook type, for hooks that do not set it (`agent`: 30 s for shell commands). */
  readonly timeoutMs?: Readonly<Record<string, number>>;
}

/**
 * A preset bundles what differs between the systems Hookline was specified from: the event catalog,
 * the context fields, the names of environment variables, the shell commands run with, the config
 * dialect, and how command hooks answer. It is data: the engine and the runners read it, they do not
 * test for a preset's name.
 */
export interface Preset {
  readonly name: string;
  readonly events: readonly EventSpec[];
  /** Context fields every emit must carry (a host contract, checked by `emit`). */
  readonly requiredContextFields: readonly string[];
  /** Optional context fields the preset documents; hosts may add others. */
  readonly contextFields: readonly string[];
  /** Context fields a hook's `matcher` is tried against (SPEC §5.1). */
  readonly matcherFields: readonly string[];
  /**
   * The context field that keys sandbox sessions and durable entries' logs: `run_id` (arc), `task`
   * (task), `session_id` (agent). It is one of the required fields.
   */
  readonly sessionField: string;
  readonly environment: PresetEnvironment;
  /** The shell command hooks run with (`sh` for `arc`, `bash` for `agent`). */
  readonly shell: string;
  /** How the config file writes hooks; the canonical `[[hooks]]` tables when absent. */
  readonly dialect?: ConfigDialect;
  /** How command hooks answer; `arc` when absent. */
  readonly commandProtocol?: CommandProtocol;
  /** Command hooks get the context on stdin as one JSON line: the JSON and a trailing newline. */
  readonly stdinLine?: boolean;
  /**
   * Command runners keep a log per hook run — command, exit, duration, stdout, stderr — under
   * `<log root>/<session key>/hooks/<hook name>.log` (`task`: `runs/<task>/hooks/<point>-NN.log`).
   */
  readonly commandLog?: boolean;
  /** Defaults for hooks of this preset that do not set the key. */
  readonly hookDefaults?: PresetHookDefaults;
  /**
   * The events the engine emits itself around a run's sandbox session: after it opened (`ready`,
   * whose blocking hooks may refuse the sandbox) and before it is disposed (`cleanup`).
   */
  readonly sandboxEvents?: { readonly ready: string; readonly cleanup: string };
}

/** Looks an event up in a preset's catalog. */
export function findEvent(preset: Preset, name: string): EventSpec | undefined {
  return preset.events.find((event) => event.name === name);
}
