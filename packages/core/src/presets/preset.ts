import type { DecisionKind } from '../decisions/decision.ts';
import type { EventContext } from '../context/event-context.ts';

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
}

/** How a preset hands the context to a process: variable names and the context-file variable. */
export interface PresetEnvironment {
  /** The variables a command hook receives for this context (never the context file's path). */
  variables(context: EventContext, contextJson: string): Record<string, string>;
  /** Name of the variable holding the path of the context file, when the preset has one. */
  readonly contextFileVariable?: string;
}

/**
 * A preset bundles what differs between the systems Hookline was specified from: the event catalog,
 * the context fields, the names of environment variables, and the shell commands run with.
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
  readonly environment: PresetEnvironment;
  /** The shell command hooks run with (`sh` for `arc`). */
  readonly shell: string;
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
