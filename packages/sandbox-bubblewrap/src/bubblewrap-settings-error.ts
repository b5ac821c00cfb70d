import { HooklineError } from '@hookline/core';

/** One problem with the settings given to `bubblewrapSandbox()` or written under `[sandbox.bubblewrap]`. */
export interface BubblewrapSettingsIssue {
  /** The setting, e.g. `memory` or `writable[1]`; empty for the settings object itself. */
  readonly key: string;
  readonly message: string;
}

/**
 * Thrown by `bubblewrapSandbox()` when settings are invalid; carries every problem at once, each
 * naming its key under `[sandbox.bubblewrap]` (the CLI reports them at that table's line).
 */
export class BubblewrapSettingsError extends HooklineError {
  readonly issues: readonly BubblewrapSettingsIssue[];

  constructor(issues: readonly BubblewrapSettingsIssue[]) {
    const lines = issues.map((issue) => `  [sandbox.bubblewrap]${issue.key === '' ? '' : ` ${issue.key}`}: ${issue.message}`);
    super('HOOKLINE_BUBBLEWRAP_SETTINGS_INVALID', `The bubblewrap sandbox settings have ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}:\n${lines.join('\n')}`);
    this.name = 'BubblewrapSettingsError';
    this.issues = issues;
  }
}
