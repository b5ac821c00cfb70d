import type { ConfigSource } from '@hookline/core';
import { settingsTableOf, type SettingsTable } from '@hookline/core/plugin';
import { FIRST_PARTY_SANDBOXES } from './first-party-packages.ts';
import { loadFirstPartyFactory } from './load-first-party.ts';

/**
 * The settings tables of the first-party sandbox providers that the config files configure
 * (`[sandbox.docker]`), or of every installed one (`all`: `validate`, `schema`), so the loader checks
 * them before anything runs. Importing a provider costs little: each defers its heavy library to its
 * first session. A provider that is missing or broken declares nothing here; using it fails later,
 * with the error that says what to install.
 */
export async function sandboxSettingsTables(
  sources: readonly ConfigSource[],
  folders: readonly string[],
  all: boolean,
): Promise<SettingsTable[]> {
  const tables: SettingsTable[] = [];
  for (const [name, entry] of Object.entries(FIRST_PARTY_SANDBOXES)) {
    if (!all && !sources.some((source) => hasTable(source.data['sandbox'], name))) continue;
    const factory = await loadFirstPartyFactory(entry, folders).catch(() => undefined);
    const table = settingsTableOf(factory);
    if (table !== undefined) tables.push(table);
  }
  return tables;
}

function hasTable(sandbox: unknown, name: string): boolean {
  return typeof sandbox === 'object' && sandbox !== null && Object.hasOwn(sandbox, name);
}
