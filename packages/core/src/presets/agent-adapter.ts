import type { EmitOutcome } from '../engine/emit-outcome.ts';
import type { PresetConfigFile, WireAnswer } from './host-io.ts';

/**
 * One hook call of a coding agent, as `hookline bridge <agent>` read it from the agent's stdin: the
 * agent's own event name and its payload, untouched.
 */
export interface AgentCall {
  /** The event as the agent names it (`PreToolUse`, `BeforeTool`, `beforeShellExecution`). */
  readonly agentEvent: string;
  /** The JSON object the agent wrote on the hook's stdin. */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** An agent's call as a preset's event: what the bridge emits. */
export interface BridgedEvent {
  readonly event: string;
  readonly context: Record<string, unknown>;
}

/**
 * The form the config is written in, which decides which event the bridge emits: `native` — the
 * agent's own preset (its event names and payload as they are); `canonical` — a preset with
 * `canonicalAgentEvents` (one config for every agent: canonical events and tool names).
 */
export type BridgeForm = 'native' | 'canonical';

/** What the adapter writes an answer for: the outcome and the call it answers. */
export interface BridgeAnswerRequest {
  readonly call: AgentCall;
  /** The merged outcome of the emitted event. */
  readonly outcome: EmitOutcome;
  readonly form: BridgeForm;
  /** The event that was emitted (the agent's own, or the canonical one). */
  readonly event: BridgedEvent;
}

/**
 * One hook entry the bridge puts into the agent's settings: the command line the agent runs and the
 * timeout the agent gives it (above the bridge's own deadline, so the bridge always answers first).
 */
export interface BridgeEntry {
  /** The command line for `agentEvent`'s entry (`hookline bridge claude`). */
  command(agentEvent: string): string;
  readonly timeoutSeconds: number;
}

/** A hook command found in the agent's settings, under the event the agent runs it for. */
export interface SettingsCommand {
  readonly agentEvent: string;
  readonly command: string;
  /** The entry's timeout in seconds, when it sets one. */
  readonly timeoutSeconds?: number;
}

/**
 * Where an agent keeps its hooks and how Hookline's entries go in and out of that file. The file is
 * JSON; the functions get and return its parsed object and never touch anything but hook entries.
 */
export interface AgentSettings {
  /** The project's settings file (`.claude/settings.json`): `hookline install <agent>`. */
  readonly project: PresetConfigFile;
  /** The user's settings file (`~/.claude/settings.json`): `hookline install <agent> --user`. */
  readonly user: PresetConfigFile;
  /**
   * Other settings files the agent reads but `hookline install` never writes (Claude Code's
   * `.claude/settings.local.json`): `hookline doctor` looks for their problems and entries too.
   */
  readonly alsoRead?: readonly PresetConfigFile[];
  /**
   * False when the agent's hook entries take no timeout (Windsurf): the entry's `timeoutSeconds` is
   * then not written, and `hookline install` names none. Default true.
   */
  readonly entriesTakeTimeout?: boolean;
  /** The agent events Hookline installs an entry for, in the order they are written. */
  readonly events: readonly string[];
  /**
   * `settings` with one bridge entry for each of `events` (some of {@link events}) added. An entry
   * already there (the same command) is left as it is, so installing twice changes nothing.
   */
  addEntries(
    settings: Readonly<Record<string, unknown>>,
    entry: BridgeEntry,
    events: readonly string[],
  ): Record<string, unknown>;
  /** `settings` without the entries whose command `isOurs`; everything else kept, empty containers removed. */
  removeEntries(
    settings: Readonly<Record<string, unknown>>,
    isOurs: (command: string) => boolean,
  ): Record<string, unknown>;
  /** Every hook command the settings run, by event. */
  commands(settings: Readonly<Record<string, unknown>>): readonly SettingsCommand[];
  /**
   * Why the agent would run no hook of this file at all, whatever its entries (Claude Code:
   * `disableAllHooks`). None: nothing stops them.
   */
  problems?(settings: Readonly<Record<string, unknown>>): readonly string[];
}

/** What the agent would do with an answer the bridge wrote: for `hookline doctor`. */
export interface WireVerdict {
  /** `invalid`: the agent would not read the answer (not its format); `reason` says why. */
  readonly verdict: 'proceed' | 'allow' | 'ask' | 'block' | 'invalid';
  readonly reason?: string;
}

/**
 * A coding agent whose hook commands `hookline bridge <agent>` stands in for: how its stdin payload
 * reads, how it maps onto its own preset's events and onto the canonical agent events, how the merged
 * outcome is written back in its wire format, and where its settings keep hook entries. A preset
 * owns it (`Preset.agent`); nothing outside that preset's code knows an agent's names or formats.
 */
export interface AgentAdapter {
  /** What `hookline bridge|install|uninstall|doctor <name>` take (`claude`). */
  readonly name: string;
  /** Other names the commands accept (`claude-code`). */
  readonly aliases?: readonly string[];
  /** The agent's name for people (`Claude Code`). */
  readonly title: string;
  /**
   * Reads the parsed stdin payload. Returns a problem (shown as the reason of a fail-closed answer)
   * when it is not one of the agent's hook payloads. `entryEvent` is the event the entry's command
   * line names (`hookline bridge copilot --event preToolUse`), for an agent whose payload does not.
   */
  readCall(payload: unknown, entryEvent?: string): AgentCall | { readonly problem: string };
  /** The call as an event of the adapter's own preset (its names and fields as they are). */
  nativeEvent(call: AgentCall): BridgedEvent;
  /**
   * The call as a canonical agent event (`Preset.canonicalAgentEvents`), with canonical tool names and
   * the agent's own names kept in the context; `undefined` when the canonical catalog has no such
   * event (the bridge then answers that nothing was decided).
   */
  canonicalEvent(call: AgentCall): BridgedEvent | undefined;
  /**
   * The event of the config's preset an agent event becomes, in `form` (`PreToolUse` → `pre_tool_use`
   * canonically), or `undefined` when it has none: `install` writes entries only for the events the
   * config has hooks for.
   */
  presetEvent(agentEvent: string, form: BridgeForm): string | undefined;
  /** Whether the call is a guard (a tool call the answer may stop): every failure of Hookline vetoes it. */
  isGuard(call: AgentCall): boolean;
  /** The merged outcome in the agent's wire format. */
  writeAnswer(request: BridgeAnswerRequest): WireAnswer;
  /**
   * The answer when Hookline could not decide (it crashed, the config does not load, the deadline
   * passed, the payload cannot be read): for a guard a refusal with `reason`, else what lets the
   * agent go on while it shows `reason`. `call` is absent when the payload could not be read; the
   * answer must then refuse in a form every event of the agent honours.
   */
  writeFailure(call: AgentCall | undefined, reason: string): WireAnswer;
  /** Reads back an answer the bridge wrote, as the agent would: for `hookline doctor`. */
  readWire(answer: WireAnswer, call: AgentCall): WireVerdict;
  /** A payload `hookline doctor` sends: a guard call of a harmless shell command, in `cwd`. */
  doctorPayload(cwd: string): Readonly<Record<string, unknown>>;
  /** The shell the agent runs an entry's command with, as `{shell} -c command` (`bash`). */
  readonly hookShell: string;
  /** Variables the agent sets for its hook commands besides its own environment (`CLAUDE_PROJECT_DIR`). */
  hookEnvironment?(projectDir: string): Readonly<Record<string, string>>;
  /** The agent's hook timeout when an entry sets none, in milliseconds (for documentation and doctor). */
  readonly defaultTimeoutMs: number;
  /**
   * The bridge's own deadline in milliseconds: by then it has answered (a guard is denied when its
   * hooks have not decided). The installed entries' timeout is above it.
   */
  readonly bridgeDeadlineMs: number;
  readonly settings: AgentSettings;
}

/** The preset whose agent is named `name` (or aliased so): the agent's adapter is its `agent`. */
export function findAgentPreset<T extends { readonly agent?: AgentAdapter }>(
  presets: readonly T[],
  name: string,
): (T & { readonly agent: AgentAdapter }) | undefined {
  const wanted = name.toLowerCase();
  return presets.find(
    (preset): preset is T & { readonly agent: AgentAdapter } =>
      preset.agent !== undefined && (preset.agent.name === wanted || preset.agent.aliases?.includes(wanted) === true),
  );
}

/** The names of every agent the presets bring, for messages and help. */
export function agentNames(presets: ReadonlyArray<{ readonly agent?: AgentAdapter }>): string[] {
  return presets.flatMap((preset) => (preset.agent === undefined ? [] : [preset.agent.name]));
}
