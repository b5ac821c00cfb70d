import { agentNames, builtInPresets, findAgentPreset, type AgentAdapter } from '@hookline/core';
import { CliError } from '../cli-error.ts';

/** The adapter of the agent a command names, or a usage error listing the known agents. */
export function findAgent(name: string): AgentAdapter {
  const owner = findAgentPreset(builtInPresets.all, name);
  if (owner === undefined)
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `unknown agent "${name}"; known agents: ${agentNames(builtInPresets.all).join(', ')}.`,
    );
  return owner.agent;
}
