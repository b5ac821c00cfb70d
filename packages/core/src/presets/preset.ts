import type { DecisionKind, HookDecision, OnErrorPolicy, OutcomeExtra } from '../decisions/decision.ts';
import type { EventContext } from '../context/event-context.ts';
import type { ConfigDialect } from '../config/config-dialect.ts';
import type { LayeringMode } from '../config/layer-entries.ts';
import type { ContextSchema } from '../context/context-field.ts';
import type { EmitOutcome } from '../engine/emit-outcome.ts';
import type { AgentAdapter } from './agent-adapter.ts';
import type { PresetConfigFile, WireAnswer } from './host-io.ts';

export type { PresetConfigFile, WireAnswer } from './host-io.ts';

/** One event of a catalog: whether its hooks block by default and which decisions the host obeys. */
export interface EventSpec {
  readonly name: string;
  /** Default for hooks of this event that do not set `blocking`. */
  readonly blocking: boolean;
  /**
   * Decisions other than `proceed` that the host honours for this event. Any other decision is
   * reported with a warning and counts as `proceed`.
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
  /**
   * The decision extras the host honours for this event (`updated_input`, `additional_context`,
   * `continue`, `system_message`). A hook's extra the event does not honour is dropped with a
   * warning, as a decision it does not honour is. None when absent.
   */
  readonly extras?: readonly OutcomeExtra[];
  /**
   * The event's blocking hooks all start at once and their decisions merge when every one has ended,
   * instead of one after another stopping at the first block (`claude`: "hooks run in parallel").
   */
  readonly parallel?: boolean;
  /**
   * Selected hooks that would do exactly the same thing (same type and keys, e.g. one command string
   * under two matchers) run once; the others are reported `skipped`, naming the one that ran.
   */
  readonly runIdenticalOnce?: boolean;
  /**
   * Context fields this event's matchers are tried against, instead of the preset's `matcherFields`
   * (`claude`: `source` for SessionStart, `trigger` for PreCompact). An empty list means the event has
   * no matcher: a matcher is dropped at load.
   */
  readonly matcherFields?: readonly string[];
  /**
   * A command's plain (non-JSON) stdout at exit 0 is `additional_context` for the host's model
   * (`claude`: UserPromptSubmit, SessionStart); elsewhere it is only logged.
   */
  readonly stdoutIsContext?: boolean;
  /**
   * The event closes the session named by the preset's `sessionField`: nothing of it that needs its
   * sandbox comes later, so `hookline run` ends the session once the event's hooks settled. Presets
   * without such an event (`task`: a task's points come and go over days) end sessions at exit.
   */
  readonly endsSession?: boolean;
}

/** How a command hook's process ended, its output decoded as text. */
export interface CommandExit {
  /** `null` when the process was ended by a signal. */
  readonly exitCode: number | null;
  /** The signal that ended it, e.g. `SIGKILL`, else `null`. */
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout was cut at the runner's output cap: it is not the whole answer. */
  readonly stdoutTruncated: boolean;
}

/** What reading an exit needs besides the exit. */
export interface CommandExitScope {
  readonly event: string;
  readonly preset: Preset;
  /** The cap the output was captured with, for messages about a cut answer. */
  readonly maxOutputBytes: number;
}

/** What a preset's command protocol made of an exit: a decision, or why the hook failed (its `on_error` decides). */
export type CommandExitReading =
  | {
      readonly status: 'ok';
      readonly decision: HookDecision;
      readonly warnings: readonly string[];
      readonly details?: Readonly<Record<string, unknown>>;
    }
  | { readonly status: 'failed'; readonly error: string; readonly warnings: readonly string[] };

/** How a preset hands the context to a process: variable names and the context-file variable. */
export interface PresetEnvironment {
  /** The variables a command hook receives for this context (never the context file's path). */
  variables(context: EventContext, contextJson: string): Record<string, string>;
  /** Name of the variable holding the path of the context file, when the preset has one. */
  readonly contextFileVariable?: string;
  /**
   * Name of a variable set to the directory the hook runs in (the context's `cwd`, else the host's
   * working directory): `CLAUDE_PROJECT_DIR`. Runners that start processes set it.
   */
  readonly workingDirectoryVariable?: string;
}

/** What a preset's JSON answer format (`Preset.readAnswer`) made of one answer. */
export interface PresetAnswer {
  readonly decision: HookDecision;
  /** Fields the answer carried that are neither wrong nor used, or were wrong and ignored. */
  readonly warnings: readonly string[];
  /**
   * Why a field that decides (a permission decision, `continue`, a replacement input) cannot be
   * honoured — a wrong type or an unknown value. Any problem makes the whole answer unreadable:
   * the hook failed, and its `on_error` decides, because ignoring a garbled "deny" would approve.
   */
  readonly problems?: readonly string[];
  /** Report details (e.g. `suppress_output`). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Defaults a preset gives its hooks, between the hook's own keys and the hook type's defaults. */
export interface PresetHookDefaults {
  /** `sandbox` of hooks that do not set it; `true` when absent. */
  readonly sandbox?: boolean;
  /** `timeout_ms` by hook type, for hooks that do not set it (`agent`: 30 s for shell commands). */
  readonly timeoutMs?: Readonly<Record<string, number>>;
}

/**
 * How a preset's hooks run shell commands: everything a runner that starts processes needs
 * (`@hookline/runner-command`, and runner-llm's shell tool). Only such runners read it.
 */
export interface PresetCommand {
  /**
   * How a command hook's exit and output read as a decision — the preset's command protocol (`arc`:
   * exit 0/2 with an optional decision JSON on stdout, any other code blocks; `agent`: exit 0
   * proceeds, anything else blocks with stderr as the reason).
   */
  readExit(exit: CommandExit, scope: CommandExitScope): CommandExitReading;
  /** The shell command strings run with, as `{shell} -c command` (`sh` for `arc`, `bash` for `agent`). */
  readonly shell: string;
  /** The variables a command receives and how it finds the context file. */
  readonly environment: PresetEnvironment;
  /** The context goes to stdin as one JSON line: the JSON and a trailing newline. */
  readonly stdinLine?: boolean;
  /**
   * Keep a log per hook run — command, exit, duration, stdout, stderr — under
   * `<log root>/<session key>/hooks/<hook name>.log` (`task`: `runs/<task>/hooks/<point>-NN.log`).
   */
  readonly log?: boolean;
}

/** The version of the preset interface this core speaks: a preset of another version is refused. */
export const PRESET_INTERFACE_VERSION = 'v1';

/** Where Hookline's own config lives: the user layer, then the project's `hookline.toml`. */
export const HOOKLINE_CONFIG_FILES: readonly PresetConfigFile[] = [
  { under: 'user-config', path: 'hookline/hookline.toml' },
  { under: 'project', path: 'hookline.toml' },
];

/** The config `hookline init` writes for a preset, and how to try it out. */
export interface PresetStarter {
  /** The starter file's text; `remote` is given when the starter names a git remote (`remote`). */
  text(options: { readonly remote: string }): string;
  /** The arguments after `hookline emit` that try the starter out, e.g. `run_start`. */
  readonly tryEmit: string;
  /**
   * The starter's lines name a git remote (`task`: where the task branches are pushed, which its
   * after_merge lines delete): the default, which `hookline init --remote NAME` replaces.
   */
  readonly remote?: { readonly default: string };
}

/**
 * A preset bundles what differs between the systems Hookline was specified from: the event catalog,
 * its context schema, the config dialect, defaults, and how command hooks run and answer (`command`).
 * It is data: the engine, the runners and the CLI read it; none of them tests for a preset's name.
 */
export interface Preset {
  /** The preset interface this preset implements; {@link definePreset} sets it. */
  readonly presetInterfaceVersion: typeof PRESET_INTERFACE_VERSION;
  /** A lowercase name (`claude`, `my-deploy`): what `preset = "…"` and `--preset` name. */
  readonly name: string;
  readonly events: readonly EventSpec[];
  /**
   * The context fields the preset documents — type, whether every emit must carry it, what a
   * command line fills in when it is missing. Hosts may add other fields (passed through).
   */
  readonly context: ContextSchema;
  /**
   * The input field in which the host's own payloads name the event, when it is not `event`
   * (`claude`: `hook_event_name`): `hookline run` reads it from lines without an `event`.
   */
  readonly eventField?: string;
  /** Context fields a hook's `matcher` is tried against. */
  readonly matcherFields: readonly string[];
  /**
   * Matchers may use lookaround, as the host's own matchers (JavaScript regular expressions) do
   * (`claude`): accepted where it provably matches in linear time, tried against at most
   * `MATCHER_INPUT_LIMIT` characters. Other presets read matchers as RE2 and refuse lookaround.
   */
  readonly matcherLookaround?: boolean;
  /**
   * The context field that keys sandbox sessions and durable entries' logs: `run_id` (arc), `task`
   * (task), `session_id` (agent). It is one of the required fields.
   */
  readonly sessionField: string;
  /** How command hooks run and answer. */
  readonly command: PresetCommand;
  /** How the config file writes hooks; the canonical `[[hooks]]` tables when absent. */
  readonly dialect?: ConfigDialect;
  /**
   * The JSON answer format of this preset's hooks, when it is not Hookline's decision JSON: how a
   * command's stdout (when it holds a JSON object) and an HTTP hook's 2xx body read as a decision.
   * `undefined` when `value` is not an answer at all.
   */
  readAnswer?(value: unknown, event: string): PresetAnswer | undefined;
  /**
   * The context as hooks receive it (stdin, HTTP body), when it is not the normalised context JSON
   * (`claude`: the host's fields without Hookline's `event`).
   */
  contextJson?(context: EventContext): string;
  /**
   * Which preset a config source is written for, when it does not say `preset = …`: `claude`
   * recognises a JSON settings file by its `hooks` object. Checked in the order of `presets`.
   */
  recognises?(source: {
    readonly file: string;
    readonly format: 'toml' | 'json';
    readonly data: Readonly<Record<string, unknown>>;
  }): boolean;
  /**
   * The config files of a host that keeps its own (`claude`: Claude Code's settings files), in
   * layering order; `hookline init` writes the first one under the project. Absent:
   * {@link HOOKLINE_CONFIG_FILES}.
   */
  readonly configFiles?: readonly PresetConfigFile[];
  /**
   * A project file the preset's host keeps its hooks in (`under: 'project'`), which a command line
   * loads as this preset's when it finds no Hookline config (`agent`: `.agent/settings.toml`), and
   * reads as this preset's whenever it is given by path.
   */
  readonly ownConfigFile?: PresetConfigFile;
  /** What `hookline init --preset <name>` writes; none: the preset has no starter. */
  readonly starter?: PresetStarter;
  /** Defaults for hooks of this preset that do not set the key. */
  readonly hookDefaults?: PresetHookDefaults;
  /**
   * What an invalid hook does to the config. `refuse-config` (the default: `arc`, `task`): the
   * config does not load, nothing runs, every problem is listed. `fail-when-selected` (`claude`,
   * `agent`, whose settings files a repository brings next to the user's own guards): the valid
   * hooks load and run; an invalid one is kept as a hook that fails wherever it would be selected
   * (its `on_error` decides), and parts of a file that cannot be read are left out — so one bad
   * entry, on purpose or not, never switches the other guards off. A file that cannot be parsed at
   * all still fails the load.
   */
  readonly invalidHooks?: 'refuse-config' | 'fail-when-selected';
  /**
   * How the config's layers combine: `replace-by-name` (the default: a later layer's hook replaces
   * or disables an earlier one of the same name, reported; `locked = true` prevents it) or
   * `merge-all` (`claude`: every settings file's hooks run, as Claude Code merges them).
   */
  readonly layering?: LayeringMode;
  /**
   * The events the engine emits itself around a run's sandbox session: after it opened (`ready`,
   * whose blocking hooks may refuse the sandbox) and before it is disposed (`cleanup`).
   */
  readonly sandboxEvents?: SandboxEvents;
  /**
   * Writes the merged outcome of `event` back in the host's own wire format, for a process that
   * stands in for the host's hook command. Absent: the host reads Hookline's outcome JSON.
   */
  writeAnswer?(outcome: EmitOutcome, event: string): WireAnswer;
  /**
   * The coding agent this preset is the hooks of, when it is one (`claude`: Claude Code): how
   * `hookline bridge <agent>` reads its calls and answers them, and where `hookline install <agent>`
   * puts the bridge's entries.
   */
  readonly agent?: AgentAdapter;
  /**
   * The preset is the canonical form of coding-agent hooks (`agent`): every agent's bridge maps its
   * calls onto this preset's events and canonical tool names (`AgentAdapter.canonicalEvent`), so one
   * config guards every agent.
   */
  readonly canonicalAgentEvents?: boolean;
}

/** The events the engine emits itself around a run's sandbox session. */
export interface SandboxEvents {
  readonly ready: string;
  readonly cleanup: string;
  /**
   * Context fields of the emit that opened the session which the sandbox events carry too, besides
   * the session field, `cwd` and `sandbox` (`arc`: `workflow_name`).
   */
  readonly carries?: readonly string[];
}

/** Looks an event up in a preset's catalog. */
export function findEvent(preset: Preset, name: string): EventSpec | undefined {
  return preset.events.find((event) => event.name === name);
}

/** The context fields an event's matchers are tried against: the event's own, else the preset's. */
export function matcherFieldsOf(preset: Preset, event: EventSpec): readonly string[] {
  return event.matcherFields ?? preset.matcherFields;
}

/** The events after which a session ends (`EventSpec.endsSession`), for hosts that end sessions by event. */
export function sessionEndEvents(preset: Preset): readonly string[] {
  return preset.events.filter((event) => event.endsSession === true).map((event) => event.name);
}
