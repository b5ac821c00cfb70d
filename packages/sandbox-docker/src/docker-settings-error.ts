import { HooklineError } from '@hookline/core';

/** One problem with the settings given to `dockerSandbox()` (the config's `[sandbox.docker]` is checked while loading). */
export interface DockerSettingsIssue {
  /** The setting, e.g. `memory` or `mounts[1]`; empty for the settings object itself. */
  readonly key: string;
  readonly message: string;
}

/**
 * Thrown by `dockerSandbox()` and `pruneDockerSandboxes()` when settings are invalid; carries every
 * problem at once, each naming its key as the code spells it (`readOnly`).
 */
export class DockerSettingsError extends HooklineError {
  readonly issues: readonly DockerSettingsIssue[];

  constructor(issues: readonly DockerSettingsIssue[]) {
    const lines = issues.map((issue) => `  ${issue.key === '' ? '(the settings)' : issue.key}: ${issue.message}`);
    super('HOOKLINE_DOCKER_SETTINGS_INVALID', `The settings given to dockerSandbox() have ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}:\n${lines.join('\n')}`);
    this.name = 'DockerSettingsError';
    this.issues = issues;
  }
}
