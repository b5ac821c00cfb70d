import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { Runner } from '../plugins/runner.ts';
import { presets } from '../presets/presets.ts';
import { commonHookKeys } from './common-hook-keys.ts';

/**
 * The JSON Schema of a config file for the given runners (SPEC §13 `hookline schema`): editors use it
 * for completion and checks through the `#:schema` comment. Each installed type is one variant with
 * its own keys; the `command` type also accepts the shorthand without `type`.
 */
export function configJsonSchema(runners: readonly Runner[], presetName = 'arc'): Record<string, unknown> {
  const events = (presets[presetName] ?? presets['arc']!).events.map((event) => event.name);
  const eventSchema = v.pipe(v.picklist(events), v.description('The lifecycle event the hook reacts to.'));
  const variants = runners.flatMap((runner) =>
    Object.entries(runner.types).map(([type, spec]) =>
      v.strictObject({
        ...commonHookKeys,
        ...spec.keys,
        event: eventSchema,
        type: type === 'command' ? v.optional(v.literal(type)) : v.literal(type),
      }),
    ),
  );
  const disable = v.strictObject({ name: v.string(), enabled: v.literal(false) });
  const hook = variants.length === 0 ? v.looseObject({ ...commonHookKeys, event: eventSchema }) : v.union([...variants, disable]);
  const config = v.looseObject({
    preset: v.optional(v.pipe(v.picklist(Object.keys(presets)), v.description('Event catalog and dialect; default "arc".'))),
    plugins: v.optional(v.pipe(v.array(v.string()), v.description('Third-party runner packages, resolved from the config file\'s folder.'))),
    sandbox: v.optional(v.looseObject({ provider: v.optional(v.pipe(v.string(), v.description('"local" (default), "docker", or a plugin\'s provider.'))) })),
    hooks: v.optional(v.array(hook)),
  });
  return {
    ...toJsonSchema(config, { errorMode: 'ignore' }),
    title: 'Hookline configuration',
  } as Record<string, unknown>;
}
