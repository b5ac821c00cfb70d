import { configJsonSchema, presetFor } from '@hookline/core';
import type { CommandModule } from '../command.ts';
import type { schema } from '../command-table.ts';
import { FIRST_PARTY_SANDBOXES } from '../plugins/first-party-packages.ts';
import { importFirstParty } from '../plugins/load-first-party.ts';
import { loadRunnerSetup } from '../config/load-setup.ts';

/** `hookline schema`: the config JSON Schema, installed runners and plugins included (SPEC §13). */
export const schemaCommand = {
  async run({ values }, io) {
    const setup = await loadRunnerSetup({ configFiles: values.config, preset: values.preset, cwd: io.cwd, env: io.env, allRunners: true });
    // The preset shapes `hooks` (task's [hooks] lists, agent's [hooks.action], claude's matcher groups):
    // --preset, else the config's, else arc.
    const preset = presetFor(setup.sources, values.preset);
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...configJsonSchema(setup.runners, preset.name, await sandboxSchemas(io.cwd)) };
    io.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    return 0;
  },
} satisfies CommandModule<typeof schema>;

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
