import type { AgentAdapter } from '@hookline/core';
import { settingsText } from './settings-file.ts';

/**
 * Whether `settings` holds nothing but what `hookline install` writes into an empty file besides its
 * entries (Cursor's `{"version": 1}`, Claude Code's `{}`): no key or hook of the user's. Uninstall then
 * removes the file it would otherwise leave behind with only that skeleton in it.
 */
export function nothingButSkeleton(adapter: AgentAdapter, settings: Readonly<Record<string, unknown>>): boolean {
  const fromNothing = adapter.settings.addEntries({}, { command: () => '', timeoutSeconds: 1 }, []);
  const skeleton = adapter.settings.removeEntries(fromNothing, () => true);
  return settingsText(settings) === settingsText(skeleton);
}
