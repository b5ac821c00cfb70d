// The issues a config load reports, formatted as `hookline validate` prints them.
import { expect } from 'vitest';
import { formatConfigIssue } from '../src/config/config-issue.ts';
import type { HookConfig } from '../src/config/hook-definition.ts';
import { ConfigError } from '../src/errors/config-error.ts';

/**
 * Runs `load`, which must throw a ConfigError — or, for a preset that keeps valid hooks running
 * (`Preset.invalidHooks`), return a config whose `problems` are not empty — and returns the issues
 * formatted; fails when it loads cleanly.
 */
export function configIssues(load: () => HookConfig): string[] {
  let config: HookConfig;
  try {
    config = load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map(formatConfigIssue);
  }
  if (config.problems !== undefined && config.problems.length > 0) return config.problems.map(formatConfigIssue);
  throw new Error('expected a ConfigError');
}
