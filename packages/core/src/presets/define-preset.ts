import { PresetError } from '../errors/preset-error.ts';
import { PRESET_INTERFACE_VERSION, type Preset } from './preset.ts';

/** Everything a preset says about itself: a {@link Preset} without the interface version, which `definePreset` adds. */
export type PresetDefinition = Omit<Preset, 'presetInterfaceVersion'>;

const NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Makes a preset: its name and how it recognises a config source, its events (each with whether it
 * blocks and what it honours), its context schema and defaults, its config dialect (one valibot
 * schema), its command protocol and answer format, how the merged outcome is written back in its
 * wire format, its `init` starter and its layering rule. The built-in presets are made with it; a
 * package that exports one (as its default export, or as a named `…Preset`) is a plugin the CLI
 * loads through `plugins = [...]` exactly as a built-in one.
 *
 * Throws a {@link PresetError} listing every inconsistency at once (an unknown session field, an
 * event named twice, sandbox events missing from the catalog).
 */
export function definePreset(definition: PresetDefinition): Preset {
  const problems = presetProblems(definition);
  if (problems.length > 0) throw new PresetError(definition.name, problems);
  return Object.freeze({ presetInterfaceVersion: PRESET_INTERFACE_VERSION, ...definition });
}

function presetProblems(definition: PresetDefinition): string[] {
  const problems: string[] = [];
  if (typeof definition.name !== 'string' || !NAME.test(definition.name))
    problems.push(
      `its name must be lowercase letters, digits and dashes, starting with a letter, not ${JSON.stringify(definition.name)}`,
    );
  if (definition.events.length === 0) problems.push('it has no events');
  const names = new Set<string>();
  for (const event of definition.events) {
    if (names.has(event.name)) problems.push(`event "${event.name}" is listed twice`);
    names.add(event.name);
  }
  const session = definition.context[definition.sessionField];
  if (session?.required !== true)
    problems.push(`its sessionField "${definition.sessionField}" must be a required field of its context`);
  for (const event of [definition.sandboxEvents?.ready, definition.sandboxEvents?.cleanup]) {
    if (event !== undefined && !names.has(event))
      problems.push(`its sandbox event "${event}" is not one of its events`);
  }
  problems.push(...agentProblems(definition));
  if (typeof definition.command.readExit !== 'function')
    problems.push("its command has no readExit (how a command hook's exit reads as a decision)");
  return problems;
}

// The agent a preset brings: a name the commands can take, and a deadline the installed entries' timeout is above.
function agentProblems(definition: PresetDefinition): string[] {
  const agent = definition.agent;
  if (agent === undefined) return [];
  const problems: string[] = [];
  for (const name of [agent.name, ...(agent.aliases ?? [])]) {
    if (typeof name !== 'string' || !NAME.test(name))
      problems.push(`its agent's name must be lowercase letters, digits and dashes, not ${JSON.stringify(name)}`);
  }
  if (!(agent.bridgeDeadlineMs > 0))
    problems.push("its agent's bridgeDeadlineMs must be a positive number of milliseconds");
  if (agent.settings.events.length === 0) problems.push("its agent's settings name no event to install an entry for");
  return problems;
}
