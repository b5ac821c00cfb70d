import { toJsonSchema } from '@valibot/to-json-schema';
import { settingsEntries } from './settings-entries.ts';
import type { SettingsTable } from './settings-table.ts';

type JsonObject = Record<string, unknown>;

/**
 * The JSON Schema of one settings table: its schema as written (a transform to the factory's
 * settings is not part of what the file holds), closed to other keys when it is an object — as the
 * loader refuses them — with each former key name listed as deprecated.
 */
export function settingsTableJsonSchema(table: SettingsTable): JsonObject {
  const { $schema: _draft, ...schema } = toJsonSchema(table.schema, { errorMode: 'ignore' }) as JsonObject;
  const properties = schema['properties'] as Record<string, JsonObject> | undefined;
  if (settingsEntries(table.schema) !== undefined && properties !== undefined) {
    schema['additionalProperties'] = false;
    for (const [former, current] of Object.entries(table.renamedKeys ?? {})) {
      const target = properties[current];
      if (target === undefined) continue;
      properties[former] = {
        ...target,
        description: `Deprecated: write \`${current}\`.`,
        deprecationMessage: `Deprecated: write \`${current}\` (snake_case).`,
      };
    }
  }
  return { ...schema, description: table.description };
}

/** Puts each table's JSON Schema at its path (`sandbox.docker` → properties.sandbox.properties.docker) of the config's. */
export function addSettingsTables(config: JsonObject, tables: readonly SettingsTable[]): void {
  for (const table of tables) {
    const parts = table.path.split('.');
    let node = config;
    for (const part of parts.slice(0, -1)) {
      const properties = (node['properties'] ??= {}) as Record<string, JsonObject>;
      node = properties[part] ??= { type: 'object', properties: {} };
    }
    const properties = (node['properties'] ??= {}) as Record<string, JsonObject>;
    properties[parts.at(-1)!] ??= settingsTableJsonSchema(table);
  }
}
