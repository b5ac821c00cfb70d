import type { OnErrorPolicy } from '../decisions/decision.ts';
import type { Matcher } from '../selection/compile-matcher.ts';
import type { ConfigIssue } from './config-issue.ts';

/** Where a piece of configuration came from. */
export interface SourceLocation {
  /** The source name given to the loader, usually a file path. */
  readonly file: string;
  /** 1-based line of the hook's table (or of the key, in issues). */
  readonly line: number;
}

/**
 * One hook after loading, layering and defaulting: everything the engine needs, resolved. A runner
 * type's `doRun` sees `TOptions` as its schema's output type.
 */
export interface HookDefinition<TOptions = Readonly<Record<string, unknown>>> {
  /** Effective name: `name`, else derived from event and type. Unique in a config. */
  readonly name: string;
  readonly event: string;
  readonly type: string;
  /** The matcher's source text, when the hook has one. */
  readonly matcher?: string;
  /** The compiled matcher (compiled once at load, RE2 semantics, linear-time). */
  readonly matcherPattern?: Matcher;
  readonly blocking: boolean;
  readonly timeoutMs: number;
  /** Run inside the configured sandbox (default) or on the host. */
  readonly sandbox: boolean;
  readonly onError: OnErrorPolicy;
  readonly enabled: boolean;
  /** `locked = true`: no later (less trusted) layer may replace or disable it. Absent: false. */
  readonly locked?: boolean;
  /**
   * What layering did to this hook, or refused to do (a less trusted layer that replaced or disabled
   * it, or tried to change a locked one): one sentence each. Every outcome repeats them as warnings.
   */
  readonly layering?: readonly string[];
  /**
   * Where the hook was turned off, when a later source disabled it with `name` + `enabled = false`;
   * `source` still names the definition in force.
   */
  readonly disabledAt?: SourceLocation;
  /**
   * Journaled before `emit` returns and run again after a crash until it ran (non-blocking hooks
   * only): `durable = true`, or the event's default (every `task` point).
   */
  readonly durable: boolean;
  /**
   * Why the hook as written is invalid, under a preset that keeps the valid hooks running
   * (`Preset.invalidHooks = "fail-when-selected"`): it never runs; wherever it is selected it is
   * reported `failed` with this error, and its `on_error` decides.
   */
  readonly broken?: string;
  /** The type's own keys (`command`, `url`, `headers`, …), as validated by the runner's schema. */
  readonly options: TOptions;
  /** Where the definition in force was written, and its index among that file's hooks. */
  readonly source: SourceLocation & { readonly index: number };
}

/** The sandbox section of a config: the provider's name and its own settings. */
export interface SandboxSettings {
  readonly provider: string;
  /** Every other key of `[sandbox]` (e.g. `[sandbox.docker]`), validated by the provider. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** A loaded configuration: the effective hooks after layering, in order. */
export interface HookConfig {
  readonly preset: string;
  readonly plugins: readonly string[];
  readonly sandbox: SandboxSettings;
  /**
   * The declared settings tables the sources write (`LoadConfigOptions.settingsTables`), validated:
   * each table's schema output by its path (`models`, `sandbox.docker`) — what its factory receives.
   */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly hooks: readonly HookDefinition[];
  /** Things worth telling the user that do not stop loading (unknown top-level keys, …). */
  readonly warnings: readonly string[];
  /**
   * Config problems a preset that keeps valid hooks running tolerated (`Preset.invalidHooks`): an
   * invalid hook is in `hooks` with `broken`, an unreadable part of a file was left out. Nothing was
   * thrown, but the config is not valid: `hookline validate` fails on them.
   */
  readonly problems?: readonly ConfigIssue[];
  /**
   * What every outcome of an engine built from this config repeats in its `warnings`: the problems
   * above, and layers that changed, or tried to change, a hook of a more trusted layer.
   */
  readonly notices?: readonly string[];
}
