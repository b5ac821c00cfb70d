import { configJsonSchema, presetFor } from '@hookline/core';
import type { Command } from '../command.ts';
import { loadRunnerSetup } from '../config/load-setup.ts';
import { sandboxSettingsTables } from '../plugins/sandbox-settings-tables.ts';
import { configOption, PRESET_HELP, expectPositionals, helpOption, parseCommandArgs } from '../parse-command-args.ts';

const options = { ...configOption, ...helpOption } as const;

const help = `Usage: hookline schema [--config FILE]...

Prints the JSON Schema of hookline.toml for every installed first-party runner and sandbox (their settings
tables included: [models], [sandbox.docker], [sandbox.bubblewrap]) plus the plugins the
config files list (found as usual, or given with --config; the config need not be valid), in the
dialect of the preset (--preset, else the config's, else arc; --preset claude describes Claude Code's
settings files and their "hooks" object). Point editors at it
with a first line such as:  #:schema ./hookline.schema.json

Options:
  -c, --config FILE   config files whose plugins (and preset) to include
${PRESET_HELP}
  -h, --help          show this help

Example:
  hookline schema > hookline.schema.json
`;

/** `hookline schema`: the config JSON Schema, installed runners and plugins included (SPEC §13). */
export const schemaCommand: Command = {
  help,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('schema', args, options);
    if (values.help === true) {
      io.stdout.write(help);
      return 0;
    }
    expectPositionals('schema', positionals, []);
    const setup = await loadRunnerSetup({ configFiles: values.config, preset: values.preset, cwd: io.cwd, env: io.env, allRunners: true });
    // The preset shapes `hooks` (task's [hooks] lists, agent's [hooks.action], claude's matcher groups):
    // --preset, else the config's, else arc.
    const preset = presetFor(setup.sources, values.preset);
    // Every installed provider's table, not only those the config writes: completion is for what may come.
    const tables = [...setup.settingsTables, ...(await sandboxSettingsTables(setup.sources, setup.folders, true))];
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...configJsonSchema(setup.runners, preset.name, tables) };
    io.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    return 0;
  },
};
