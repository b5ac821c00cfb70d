import * as v from 'valibot';
import type { GenericSchema, InferOutput, ObjectEntries } from 'valibot';
import { defineSettingsTable, type SettingsTable } from './settings-table.ts';

/** `readOnly` → `read_only`, `dockerHost` → `docker_host`. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * The settings table of a factory whose settings are a camelCase object schema (`readOnly`, as
 * JavaScript spells options): the table takes the same keys in snake_case (`read_only`, as hooks
 * spell theirs), accepts the camelCase spelling with a deprecation warning, and hands the factory
 * the camelCase object its own schema describes. One schema serves code and config.
 */
export function snakeCaseTable<TSchema extends GenericSchema & { readonly entries: ObjectEntries }>(
  path: string,
  description: string,
  schema: TSchema,
): SettingsTable<GenericSchema<unknown, InferOutput<TSchema>>> {
  const entries: ObjectEntries = {};
  const camelOf: Record<string, string> = {};
  const renamedKeys: Record<string, string> = {};
  for (const [key, entry] of Object.entries(schema.entries)) {
    const snake = snakeCase(key);
    entries[snake] = entry;
    camelOf[snake] = key;
    if (snake !== key) renamedKeys[key] = snake;
  }
  const table: GenericSchema<unknown, InferOutput<TSchema>> = v.pipe(
    v.object(entries),
    v.transform((input): InferOutput<TSchema> => {
      const output: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(input)) output[camelOf[key] ?? key] = value;
      return output;
    }),
  );
  return defineSettingsTable({ path, description, schema: table, renamedKeys });
}
