import { builtInPresets, requiredFields, type Preset } from '@hookline/core';

/**
 * What `hookline emit --help` says about required context fields the command line fills in, read
 * from each preset's context schema so the help cannot drift from what `buildContext` does: one
 * line per preset, e.g. `  arc     run_id = cli-<UTC time>-<hex>, workflow_name = "cli"`.
 */
export function contextDefaultsHelp(): string {
  return builtInPresets.all.map((preset) => `  ${preset.name.padEnd(8)}${presetDefaults(preset)}`).join('\n');
}

function presetDefaults(preset: Preset): string {
  const fields = requiredFields(preset.context).map((field) => {
    const fill = preset.context[field]!.cliDefault;
    if (fill === undefined) return `needs --set ${field}=…`;
    return `${field} = ${fill.kind === 'session-key' ? 'cli-<UTC time>-<hex>' : JSON.stringify(fill.text)}`;
  });
  return fields.join(', ');
}
