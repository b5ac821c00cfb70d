import type { ConfigIssue } from '../config/config-issue.ts';
import { formatConfigIssue } from '../config/config-issue.ts';
import { HooklineError } from './hookline-error.ts';

/** Thrown when configuration cannot be loaded; carries every issue found, not just the first. */
export class ConfigError extends HooklineError {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super(
      'HOOKLINE_CONFIG_INVALID',
      `Hookline configuration has ${count}; nothing was run:\n${issues.map((issue) => `  ${formatConfigIssue(issue)}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
