// The issues a config load reports, formatted as `hookline validate` prints them.
import { expect } from 'vitest';
import { formatConfigIssue } from '../src/config/config-issue.ts';
import { ConfigError } from '../src/errors/config-error.ts';

/** Runs `load`, which must throw a ConfigError, and returns its issues formatted; fails when it loads. */
export function configIssues(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map(formatConfigIssue);
  }
  throw new Error('expected a ConfigError');
}
