import { HooklineError } from '@hookline/core';

/** One problem with the settings given to `dockerSandbox()` or written under `[sandbox.docker]`. */
export interface DockerSettingsIssue {
  /** The setting, e.g. `memory` or `mounts[1]`; empty for the settings object itself. */
  readonly key: string;
  readonly message: string;
}

/**
 * Thrown by `dockerSandbox()` and `pruneDockerSandboxes()` when settings are invalid; carries every
 * problem at once, each naming its key under `[sandbox.docker]`.
 */
export class DockerSettingsError extends HooklineError {
  readonly issues: readonly DockerSettingsIssue[];

  constructor(issues: readonly DockerSettingsIssue[]) {
    const lines = issues.map((issue) => `  [sandbox.docker]${issue.key === '' ? '' : ` ${issue.key}`}: ${issue.message}`);
    super('HOOKLINE_DOCKER_SETTINGS_INVALID', `The docker sandbox settings have ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}:\n${lines.join('\n')}`);
    this.name = 'DockerSettingsError';
    this.issues = issues;
  }
}
