import { configJsonSchema } from '@hookline/core';
import type { CommandModule } from '../command.ts';
import type { schema } from '../command-specs.ts';
import { loadRunnerSetup } from '../config/load-setup.ts';
import { sandboxSettingsTables } from '../plugins/sandbox-settings-tables.ts';

/** `hookline schema`: the config JSON Schema, installed runners and plugins included, settings tables too. */
export const schemaCommand = {
  async run({ values }, io) {
    const setup = await loadRunnerSetup({
      configFiles: values.config,
      preset: values.preset,
      cwd: io.cwd,
      env: io.env,
      allRunners: true,
    });
    // The preset shapes `hooks` (task's [hooks] lists, agent's [hooks.action], claude's matcher groups):
    // --preset, else the config's, else the default; a plugin's preset as a built-in one.
    const preset = setup.presets.presetFor(setup.sources, values.preset);
    // Every installed provider's table, not only those the config writes: completion is for what may come.
    const tables = [...setup.settingsTables, ...(await sandboxSettingsTables(setup.sources, setup.folders, true))];
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...configJsonSchema(setup.runners, preset.name, tables, setup.presets.all),
    };
    io.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    return 0;
  },
} satisfies CommandModule<typeof schema>;
