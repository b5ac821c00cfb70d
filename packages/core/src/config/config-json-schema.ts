import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { keyRuleJsonSchema } from '../plugins/key-rule.ts';
import type { Runner, RunnerType } from '../plugins/runner.ts';
import { addSettingsTables } from '../plugins/settings-table-json-schema.ts';
import type { SettingsTable } from '../plugins/settings-table.ts';
import { DEFAULT_PRESET, presets } from '../presets/presets.ts';
import { canonicalDialect } from './canonical-dialect.ts';
import { commonHookKeys } from './common-hook-keys.ts';

/**
 * The JSON Schema of a config file for the given runners, preset and the settings tables the host's
 * plugins declare (`[models]`, `[sandbox.docker]`, each at its path) (SPEC §13 `hookline schema`):
 * editors use it for completion and checks through the `#:schema` comment. Each installed type is one
 * variant with its own keys; the `command` type also accepts the shorthand without `type`. The
 * preset's dialect decides the shape of `hooks` (`task`: a table of command lists, or `[[hooks]]`).
 */
export function configJsonSchema(
  runners: readonly Runner[],
  presetName: string = DEFAULT_PRESET,
  settingsTables: readonly SettingsTable[] = [],
): Record<string, unknown> {
  const preset = presets[presetName] ?? presets[DEFAULT_PRESET]!;
  const events = preset.events.map((event) => event.name);
  const event = v.pipe(v.picklist(events), v.description('The lifecycle event the hook reacts to.'));
  const types: Record<string, RunnerType> = {};
  for (const runner of runners) Object.assign(types, runner.types);
  // Each object schema that holds a type's keys, with the type's rules, stated as if/then in the output.
  const ruled = new WeakMap<object, RunnerType>();
  const withRules = <TSchema extends GenericSchema>(schema: TSchema, type: RunnerType): TSchema => {
    if ((type.rules?.length ?? 0) > 0) ruled.set(schema, type);
    return schema;
  };
  const hookWith = (extraKeys: Readonly<Record<string, GenericSchema>>): GenericSchema => {
    const variants = Object.entries(types).map(([type, spec]) =>
      withRules(
        v.strictObject({
          ...commonHookKeys,
          ...spec.keys,
          ...extraKeys,
          event,
          type: type === 'command' ? v.optional(v.literal(type)) : v.literal(type),
        }),
        spec,
      ),
    );
    const disable = v.strictObject({ name: v.string(), enabled: v.literal(false) });
    return variants.length === 0 ? v.looseObject({ ...commonHookKeys, ...extraKeys, event }) : v.union([...variants, disable]);
  };
  const hooks = (preset.dialect ?? canonicalDialect).hooksSchema({ hook: hookWith({}), hookWith, withRules, event, events, types });
  const config = v.looseObject({
    preset: v.optional(v.pipe(v.picklist(Object.keys(presets)), v.description('Event catalog and dialect: "arc" (default), "task", "agent" or "claude".'))),
    plugins: v.optional(v.pipe(v.array(v.string()), v.description('Third-party runner packages, resolved from the config file\'s folder.'))),
    sandbox: v.optional(
      v.looseObject({
        provider: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('"local" (default), "bubblewrap", "docker", or a plugin\'s provider.'))),
      }),
    ),
    hooks: v.optional(hooks),
  });
  const schema = {
    ...toJsonSchema(config, {
      errorMode: 'ignore',
      overrideSchema: ({ valibotSchema, jsonSchema }) => {
        const type = ruled.get(valibotSchema);
        return type === undefined ? undefined : { ...jsonSchema, allOf: type.rules!.map(keyRuleJsonSchema) };
      },
    }),
    title: 'Hookline configuration',
  } as Record<string, unknown>;
  addSettingsTables(schema, settingsTables);
  return schema;
}
