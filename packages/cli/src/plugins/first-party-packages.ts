import type { ConfigSource } from '@hookline/core';
import { topLevelTable } from '../config/top-level-table.ts';

/** Where the CLI finds one first-party plugin: the package, and the factory export it calls. */
export interface FirstPartyPackage {
  readonly package: string;
  /** A named export called with `settings` (runners) or with `[sandbox.<name>]` (sandboxes). */
  readonly factory: string;
  /** The runner factory's settings, read from the config files; no argument when absent. */
  readonly settings?: (sources: readonly ConfigSource[]) => unknown;
  /** Top-level tables of the config this package owns (so they are not "unknown keys"). */
  readonly tables?: readonly string[];
  /** Node flags the process must have been started with to run this package's hooks. */
  readonly nodeFlags?: readonly string[];
}

// runner-llm: `[models]` maps aliases to model ids; later files override earlier ones, key by key.
const llm: FirstPartyPackage = {
  package: '@hookline/runner-llm',
  factory: 'llmRunner',
  settings: (sources) => ({ models: topLevelTable(sources, 'models') }),
  tables: ['models'],
};

/**
 * The hook types the CLI knows how to load, by type. Adding a runner is one line here (and the
 * package as an optional peer dependency of @hookline/cli). A package that is not installed is
 * skipped, and core's "unknown hook type … install @hookline/runner-http" error tells the user what
 * to do. Packages are imported only when a config uses one of their types (core's
 * `configHookTypes`), so a command-only config never loads undici, the Anthropic SDK, dockerode or
 * isolated-vm.
 */
export const FIRST_PARTY_RUNNERS: Readonly<Record<string, FirstPartyPackage>> = {
  command: { package: '@hookline/runner-command', factory: 'commandRunner' },
  http: { package: '@hookline/runner-http', factory: 'httpRunner' },
  prompt: llm,
  agent: llm,
  // isolated-vm: isolates can crash a Node ≥ 20 process started with its default startup snapshot.
  script: { package: '@hookline/runner-script', factory: 'scriptRunner', nodeFlags: ['--no-node-snapshot'] },
};

/** A first-party sandbox provider; `prune` names its export that removes leftovers of crashed runs. */
export interface FirstPartySandbox extends FirstPartyPackage {
  readonly prune?: string;
  /** Its export holding the valibot schema of `[sandbox.<name>]`, for `hookline schema`. */
  readonly schema?: string;
}

/** Sandbox providers by the name `[sandbox] provider` selects them with; loaded only when a hook runs sandboxed. */
export const FIRST_PARTY_SANDBOXES: Readonly<Record<string, FirstPartySandbox>> = {
  local: { package: '@hookline/runner-command', factory: 'localSandbox' },
  bubblewrap: { package: '@hookline/sandbox-bubblewrap', factory: 'bubblewrapSandbox', schema: 'bubblewrapSettingsSchema' },
  docker: { package: '@hookline/sandbox-docker', factory: 'dockerSandbox', prune: 'pruneDockerSandboxes', schema: 'dockerSettingsSchema' },
};
