import type { GenericSchema, InferOutput } from 'valibot';

/**
 * A settings table a plugin reads from the config file — `[models]`, `[sandbox.docker]`,
 * `[journal]` — declared as a valibot schema. Core validates it while loading, with the same issues
 * as hooks get (file, line of the key, "did you mean"), and `configJsonSchema` describes it, so a
 * third-party plugin's table gets completion and errors for free. The schema's output is what the
 * plugin's factory receives.
 */
export interface SettingsTable<TSchema extends GenericSchema = GenericSchema> {
  /** Where the table stands, dotted: `models`, `sandbox.docker`. */
  readonly path: string;
  /**
   * The table as written (snake_case keys, like a hook's). An object schema — or an object schema
   * piped into a transform — gets unknown keys reported by core with the nearest known one; its
   * output is the factory's settings.
   */
  readonly schema: TSchema;
  /** What the table is for, shown by editors and the configuration reference. */
  readonly description: string;
  /**
   * Former key names, still accepted with a warning that names the current one (`readOnly` →
   * `read_only`); listed in the JSON Schema as deprecated.
   */
  readonly renamedKeys?: Readonly<Record<string, string>>;
}

/** The settings a table's schema produces: what the plugin's factory receives. */
export type SettingsOf<TTable extends SettingsTable> = InferOutput<TTable['schema']>;

/**
 * A plugin factory that reads a settings table: the host validates the table while loading the
 * config and calls the factory with the schema's output (`dockerSandbox.settingsTable`).
 */
export interface SettingsFactory<TTable extends SettingsTable = SettingsTable, TPlugin = unknown> {
  (settings?: SettingsOf<TTable>): TPlugin;
  readonly settingsTable: TTable;
}

/** Types a settings table declaration (an identity helper, like `defineRunner`). */
export function defineSettingsTable<TSchema extends GenericSchema>(
  table: SettingsTable<TSchema>,
): SettingsTable<TSchema> {
  return table;
}

/** The settings table a plugin export declares (`factory.settingsTable`), if it looks like one. */
export function settingsTableOf(value: unknown): SettingsTable | undefined {
  if ((typeof value !== 'function' && typeof value !== 'object') || value === null) return undefined;
  const table: unknown = (value as { settingsTable?: unknown }).settingsTable;
  if (typeof table !== 'object' || table === null) return undefined;
  const { path, schema } = table as Partial<SettingsTable>;
  return typeof path === 'string' && typeof schema === 'object' && schema !== null
    ? (table as SettingsTable)
    : undefined;
}
