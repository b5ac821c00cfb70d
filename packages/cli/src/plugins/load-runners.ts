import { ConfigError, messageOf, type ConfigSource, type Runner } from '@hookline/core';
import { FIRST_PARTY_RUNNERS, type FirstPartyPackage } from './first-party-packages.ts';
import { loadFirstPartyFactory } from './load-first-party.ts';

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
): Promise<Runner[]> {
  const entries = new Map<string, { entry: FirstPartyPackage; required: boolean }>();
  for (const type of types) {
    const entry = Object.hasOwn(FIRST_PARTY_RUNNERS, type) ? FIRST_PARTY_RUNNERS[type] : undefined;
    if (entry === undefined) continue;
    const key = `${entry.package}#${entry.factory}`;
    entries.set(key, { entry, required: (entries.get(key)?.required ?? false) || required.has(type) });
  }
  const runners: Runner[] = [];
  for (const { entry, required: needed } of entries.values()) {
    try {
      const factory = await loadFirstPartyFactory(entry, folders);
      if (factory !== undefined) runners.push(createRunner(factory, entry, sources));
    } catch (error) {
      if (needed) throw error;
    }
  }
  return runners;
}

// Settings read from the config (e.g. `[models]`) that the factory rejects are a config problem:
// report it at the table's line in the last file that has it.
function createRunner(factory: (settings?: unknown) => unknown, entry: FirstPartyPackage, sources: readonly ConfigSource[]): Runner {
  if (entry.settings === undefined) return factory() as Runner;
  try {
    return factory(entry.settings(sources)) as Runner;
  } catch (error) {
    const table = entry.tables?.find((name) => sources.some((source) => source.data[name] !== undefined));
    const source = table === undefined ? undefined : sources.findLast((candidate) => candidate.data[table] !== undefined);
    if (table === undefined || source === undefined) throw error;
    const message = messageOf(error);
    throw new ConfigError([{ file: source.file, line: source.lines.topLevel(table) ?? 1, message: `invalid [${table}] table: ${message}`, fix: `fix the entries of [${table}]` }]);
  }
}
