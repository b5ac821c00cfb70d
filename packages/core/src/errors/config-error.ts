import type { ConfigIssue } from '../config/config-issue.ts';
import { formatConfigIssue } from '../config/config-issue.ts';
import { HooklineError } from './hookline-error.ts';

/**
 * Thrown when configuration cannot be loaded; carries every issue found, not just the first. Plugins
 * whose settings are refused throw a subclass of it (`DockerSettingsError`), with the same issues.
 */
export class ConfigError extends HooklineError {
  readonly issues: readonly ConfigIssue[];

  /**
   * `options` lets a subclass keep its own `code` and first line; the issues are listed below either.
   */
  constructor(issues: readonly ConfigIssue[], options?: { readonly code?: string; readonly summary?: string }) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super(
      options?.code ?? 'HOOKLINE_CONFIG_INVALID',
      `${options?.summary ?? `Hookline configuration has ${count}; nothing was run`}:\n${issues.map((issue) => `  ${formatConfigIssue(issue)}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
