/** Where the CLI finds one first-party plugin: the package, and the factory export it calls. */
export interface FirstPartyPackage {
  readonly package: string;
  /** A named export called with no arguments (runners) or with `[sandbox.<name>]` (sandboxes). */
  readonly factory: string;
}

/**
 * The hook types the CLI knows how to load, by type. Adding a runner is one line here (and the
 * package as a dependency of @hookline/cli). A package that is not installed is skipped, and core's
 * "unknown hook type … install @hookline/runner-http" error tells the user what to do. Packages are
 * imported only when a config uses one of their types, so a command-only config never loads undici,
 * the Anthropic SDK, dockerode or isolated-vm.
 */
export const FIRST_PARTY_RUNNERS: Readonly<Record<string, FirstPartyPackage>> = {
  command: { package: '@hookline/runner-command', factory: 'commandRunner' },
  http: { package: '@hookline/runner-http', factory: 'httpRunner' },
  prompt: { package: '@hookline/runner-llm', factory: 'llmRunner' },
  agent: { package: '@hookline/runner-llm', factory: 'llmRunner' },
  script: { package: '@hookline/runner-script', factory: 'scriptRunner' },
};

/** A first-party sandbox provider; `prune` names its export that removes leftovers of crashed runs. */
export interface FirstPartySandbox extends FirstPartyPackage {
  readonly prune?: string;
}

/** Sandbox providers by the name `[sandbox] provider` selects them with; loaded only when a hook runs sandboxed. */
export const FIRST_PARTY_SANDBOXES: Readonly<Record<string, FirstPartySandbox>> = {
  local: { package: '@hookline/runner-command', factory: 'localSandbox' },
  docker: { package: '@hookline/sandbox-docker', factory: 'dockerSandbox', prune: 'pruneDockerSandboxes' },
};
