import { HooklineError } from '@hookline/core';

/** One problem with the settings given to `bubblewrapSandbox()` (the config's `[sandbox.bubblewrap]` is checked while loading). */
export interface BubblewrapSettingsIssue {
  /** The setting, e.g. `memory` or `writable[1]`; empty for the settings object itself. */
  readonly key: string;
  readonly message: string;
}

/**
 * Thrown by `bubblewrapSandbox()` when settings are invalid; carries every problem at once, each
 * naming its key as the code spells it (`killGraceMs`).
 */
export class BubblewrapSettingsError extends HooklineError {
  readonly issues: readonly BubblewrapSettingsIssue[];

  constructor(issues: readonly BubblewrapSettingsIssue[]) {
    const lines = issues.map((issue) => `  ${issue.key === '' ? '(the settings)' : issue.key}: ${issue.message}`);
    super('HOOKLINE_BUBBLEWRAP_SETTINGS_INVALID', `The settings given to bubblewrapSandbox() have ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}:\n${lines.join('\n')}`);
    this.name = 'BubblewrapSettingsError';
    this.issues = issues;
  }
}
