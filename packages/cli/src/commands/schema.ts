import { configJsonSchema, presetFor } from '@hookline/core';
import type { Command } from '../command.ts';
import { FIRST_PARTY_SANDBOXES } from '../plugins/first-party-packages.ts';
import { importFirstParty } from '../plugins/load-first-party.ts';
import { loadRunnerSetup } from '../config/load-setup.ts';
import { configOption, PRESET_HELP, expectPositionals, helpOption, parseCommandArgs } from '../parse-command-args.ts';

const options = { ...configOption, ...helpOption } as const;

const help = `Usage: hookline schema [--config FILE]...

Prints the JSON Schema of hookline.toml for every installed first-party runner and sandbox plus the plugins the
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
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...configJsonSchema(setup.runners, preset.name, await sandboxSchemas(io.cwd)) };
    io.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    return 0;
  },
};

// The settings schemas of the installed first-party sandbox providers, by provider name.
type SandboxSchemas = NonNullable<Parameters<typeof configJsonSchema>[2]>;

async function sandboxSchemas(cwd: string): Promise<SandboxSchemas> {
  const schemas: Record<string, SandboxSchemas[string]> = {};
  for (const [name, entry] of Object.entries(FIRST_PARTY_SANDBOXES)) {
    if (entry.schema === undefined) continue;
    const imported = await importFirstParty(entry.package, [cwd]);
    const schema = imported.status === 'loaded' ? imported.exports[entry.schema] : undefined;
    if (typeof schema === 'object' && schema !== null) schemas[name] = schema as SandboxSchemas[string];
  }
  return schemas;
}
