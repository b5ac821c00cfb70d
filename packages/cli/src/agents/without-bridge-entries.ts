import { builtInPresets, type HookConfig } from '@hookline/core';
import { isBridgeCommand } from './bridge-command-line.ts';

/**
 * The config without the hooks that are Hookline's own bridge entries. An agent's settings file read
 * as a config (`hookline install codex --config .codex/hooks.json --preset codex`) holds the entry
 * that runs the bridge; run as one of its hooks, that bridge would load the same file and start
 * another, without end. Such an entry never guards anything by itself, so it is left out with a
 * warning saying which.
 */
export function withoutBridgeEntries(config: HookConfig): HookConfig {
  const own = config.hooks.filter((hook) => isOwnEntry(hook.options));
  if (own.length === 0) return config;
  const names = own.map((hook) => `"${hook.name}"`).join(', ');
  return {
    ...config,
    hooks: config.hooks.filter((hook) => !own.includes(hook)),
    warnings: [
      ...config.warnings,
      `skipped ${names}: ${own.length === 1 ? 'it runs' : 'they run'} \`hookline bridge\` itself, which would call itself without end; hooks of the bridge's config are the ones it runs`,
    ],
  };
}

function isOwnEntry(options: unknown): boolean {
  if (typeof options !== 'object' || options === null) return false;
  const command = 'command' in options ? options.command : undefined;
  if (typeof command !== 'string') return false;
  return builtInPresets.all.some((preset) => preset.agent !== undefined && isBridgeCommand(preset.agent, command));
}
