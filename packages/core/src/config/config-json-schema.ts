import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { Runner } from '../plugins/runner.ts';
import type { HookTypeDeclaration } from '../plugins/runner-type.ts';
import { addSettingsTables } from '../plugins/settings-table-json-schema.ts';
import type { SettingsTable } from '../plugins/settings-table.ts';
import { builtInPresets } from '../presets/built-in-presets.ts';
import type { Preset } from '../presets/preset.ts';
import { canonicalDialect } from './canonical-dialect.ts';
import { hookSchemas } from './hook-schemas.ts';
import { ruledJsonSchema } from './ruled-schema.ts';
import { PLUGINS, presetKey, SANDBOX_PROVIDER } from './top-level-keys.ts';

/**
 * The JSON Schema of a config file for the given runners, preset and the settings tables the host's
 * plugins declare (`[models]`, `[sandbox.docker]`, each at its path) (what `hookline schema` prints):
 * editors use it for completion and checks through the `#:schema` comment. It is generated from what
 * the loader validates with: the top-level keys, the preset's hook schemas for these runners (a
 * variant per installed type, with its rules as `if`/`then`) in the form the preset's dialect writes
 * `hooks` in, and each settings table's schema. `presets`: those of the host's plugins, known besides
 * the built-in ones (`presetName` may name one).
 */
export function configJsonSchema(
  runners: readonly Runner[],
  presetName?: string,
  settingsTables: readonly SettingsTable[] = [],
  pluginPresets: readonly Preset[] = [],
): Record<string, unknown> {
  const presets = builtInPresets.with(pluginPresets);
  const preset = (presetName === undefined ? undefined : presets.get(presetName)) ?? presets.fallback;
  const types: Record<string, HookTypeDeclaration> = {};
  for (const runner of runners) Object.assign(types, runner.types);
  const hooks = (preset.dialect ?? canonicalDialect).hooksSchema(preset, hookSchemas(preset, types));
  const config = v.looseObject({
    preset: presetKey(presets.names, presets.fallback.name),
    plugins: PLUGINS,
    sandbox: v.optional(v.looseObject({ provider: SANDBOX_PROVIDER })),
    hooks: v.optional(hooks),
  });
  const schema = {
    ...toJsonSchema(config, { errorMode: 'ignore', overrideSchema: ruledJsonSchema }),
    title: 'Hookline configuration',
  } as Record<string, unknown>;
  addSettingsTables(schema, settingsTables);
  return schema;
}
