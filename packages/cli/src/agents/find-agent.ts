import { agentNames, builtInPresets, findAgentPreset, type AgentAdapter, type Preset } from '@hookline/core';
import { CliError } from '../cli-error.ts';

/** The preset that owns the agent a command names, with its adapter; a usage error listing the known agents otherwise. */
export function findAgent(name: string): Preset & { readonly agent: AgentAdapter } {
  const owner = findAgentPreset(builtInPresets.all, name);
  if (owner === undefined)
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `unknown agent "${name}"; known agents: ${agentNames(builtInPresets.all).join(', ')}.`,
    );
  return owner;
}
