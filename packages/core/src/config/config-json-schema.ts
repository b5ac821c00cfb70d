import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { Runner, RunnerType } from '../plugins/runner.ts';
import { DEFAULT_PRESET, presets } from '../presets/presets.ts';
import { canonicalDialect } from './canonical-dialect.ts';
import { commonHookKeys } from './common-hook-keys.ts';

/**
 * The JSON Schema of a config file for the given runners, preset and sandbox providers' settings
 * schemas (`{ docker: dockerSettingsSchema }`, each describing `[sandbox.<name>]`) (SPEC §13 `hookline schema`):
 * editors use it for completion and checks through the `#:schema` comment. Each installed type is one
 * variant with its own keys; the `command` type also accepts the shorthand without `type`. The
 * preset's dialect decides the shape of `hooks` (`task`: a table of command lists, or `[[hooks]]`).
 */
export function configJsonSchema(
  runners: readonly Runner[],
  presetName: string = DEFAULT_PRESET,
  sandboxes: Readonly<Record<string, GenericSchema>> = {},
): Record<string, unknown> {
  const preset = presets[presetName] ?? presets[DEFAULT_PRESET]!;
  const events = preset.events.map((event) => event.name);
  const event = v.pipe(v.picklist(events), v.description('The lifecycle event the hook reacts to.'));
  const types: Record<string, RunnerType> = {};
  for (const runner of runners) Object.assign(types, runner.types);
  const hookWith = (extraKeys: Readonly<Record<string, GenericSchema>>): GenericSchema => {
    const variants = Object.entries(types).map(([type, spec]) =>
      v.strictObject({
        ...commonHookKeys,
        ...spec.options.entries,
        ...extraKeys,
        event,
        type: type === 'command' ? v.optional(v.literal(type)) : v.literal(type),
      }),
    );
    const disable = v.strictObject({ name: v.string(), enabled: v.literal(false) });
    return variants.length === 0 ? v.looseObject({ ...commonHookKeys, ...extraKeys, event }) : v.union([...variants, disable]);
  };
  const hooks = (preset.dialect ?? canonicalDialect).hooksSchema({ hook: hookWith({}), hookWith, event, events, types });
  const config = v.looseObject({
    preset: v.optional(v.pipe(v.picklist(Object.keys(presets)), v.description('Event catalog and dialect: "arc" (default), "task", "agent" or "claude".'))),
    plugins: v.optional(v.pipe(v.array(v.string()), v.description('Third-party runner packages, resolved from the config file\'s folder.'))),
    sandbox: v.optional(
      v.looseObject({
        provider: v.optional(v.pipe(v.string(), v.description('"local" (default), "bubblewrap", "docker", or a plugin\'s provider.'))),
        ...Object.fromEntries(Object.entries(sandboxes).map(([name, schema]) => [name, v.optional(v.pipe(schema, v.description(`Settings of the ${name} sandbox provider.`)))])),
      }),
    ),
    hooks: v.optional(hooks),
  });
  return {
    ...toJsonSchema(config, { errorMode: 'ignore' }),
    title: 'Hookline configuration',
  } as Record<string, unknown>;
}
