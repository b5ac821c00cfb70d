import { readSettingsTables, type ConfigSource, type Runner } from '@hookline/core';
import { settingsTableOf, type SettingsTable } from '@hookline/core/plugin';
import { FIRST_PARTY_RUNNERS, type FirstPartyPackage } from './first-party-packages.ts';
import { loadFirstPartyFactory } from './load-first-party.ts';

/** First-party runners, and the settings tables their factories declare (for the loader and the schema). */
export interface FirstPartyRunners {
  readonly runners: readonly Runner[];
  readonly settingsTables: readonly SettingsTable[];
}

/**
 * The first-party runners for `types` that are installed, one per package (runner-llm serves both
 * `prompt` and `agent`). Types no installed package provides are left out for validation to report.
 * A package that is installed but fails to load is an error when the config uses one of its types
 * (`required`), and skipped otherwise — `validate` and `schema` load every installed runner for
 * richer hints, and a broken optional one must not fail a config that never uses it.
 */
export async function loadFirstPartyRunners(
  types: Iterable<string>,
  folders: readonly string[],
  required: ReadonlySet<string>,
  sources: readonly ConfigSource[],
): Promise<FirstPartyRunners> {
  const entries = new Map<string, { entry: FirstPartyPackage; required: boolean }>();
  for (const type of types) {
    const entry = Object.hasOwn(FIRST_PARTY_RUNNERS, type) ? FIRST_PARTY_RUNNERS[type] : undefined;
    if (entry === undefined) continue;
    const key = `${entry.package}#${entry.factory}`;
    entries.set(key, { entry, required: (entries.get(key)?.required ?? false) || required.has(type) });
  }
  const runners: Runner[] = [];
  const settingsTables: SettingsTable[] = [];
  for (const { entry, required: needed } of entries.values()) {
    try {
      const factory = await loadFirstPartyFactory(entry, folders);
      if (factory === undefined) continue;
      const table = settingsTableOf(factory);
      if (table !== undefined) settingsTables.push(table);
      runners.push(factory(table === undefined ? undefined : validSettings(table, sources)) as Runner);
    } catch (error) {
      if (needed) throw error;
    }
  }
  return { runners, settingsTables };
}

/**
 * A factory's settings from its table in the config files, validated by core. The runner must exist
 * before the config is loaded (its types decide which hooks are valid), so a table with problems
 * gives it no settings: the loader reports those problems with every other one, and nothing runs.
 */
export function validSettings(table: SettingsTable, sources: readonly ConfigSource[]): unknown {
  const read = readSettingsTables(sources, [table]);
  return read.issues.length > 0 ? undefined : read.settings[table.path];
}
