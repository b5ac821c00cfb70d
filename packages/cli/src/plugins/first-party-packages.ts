/** Where the CLI finds one first-party plugin: the package, and the factory export it calls. */
export interface FirstPartyPackage {
  readonly package: string;
  /**
   * A named export called with its settings: the validated table it declares as `settingsTable`
   * (`[models]`, `[sandbox.docker]`), or nothing when it declares none or the config has none.
   */
  readonly factory: string;
}

// runner-llm serves two types; its factory declares `[models]`.
const llm: FirstPartyPackage = { package: '@hookline/runner-llm', factory: 'llmRunner' };

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
  // Its hooks need Node flags (isolated-vm): runner-script/script-host says where they run (load-setup.ts).
  script: { package: '@hookline/runner-script', factory: 'scriptRunner' },
};

/** A first-party sandbox provider; `prune` names its export that removes leftovers of crashed runs. */
export interface FirstPartySandbox extends FirstPartyPackage {
  readonly prune?: string;
  /** Whether its factory takes `protectedPaths` (core's `ProtectedPathsSettings`): a boundary that binds host folders writable. */
  readonly protects?: boolean;
}

/** Sandbox providers by the name `[sandbox] provider` selects them with; loaded only when a hook runs sandboxed. */
export const FIRST_PARTY_SANDBOXES: Readonly<Record<string, FirstPartySandbox>> = {
  local: { package: '@hookline/runner-command', factory: 'localSandbox' },
  bubblewrap: { package: '@hookline/sandbox-bubblewrap', factory: 'bubblewrapSandbox', protects: true },
  docker: {
    package: '@hookline/sandbox-docker',
    factory: 'dockerSandbox',
    prune: 'pruneDockerSandboxes',
    protects: true,
  },
};
