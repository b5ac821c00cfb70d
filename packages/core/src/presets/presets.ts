import { agentPreset } from './agent-preset.ts';
import { arcPreset } from './arc-preset.ts';
import { claudePreset } from './claude-preset.ts';
import type { Preset } from './preset.ts';
import { taskPreset } from './task-preset.ts';

/** The presets this core knows, by name. */
export const presets: Readonly<Record<string, Preset>> = { arc: arcPreset, task: taskPreset, agent: agentPreset, claude: claudePreset };

/**
 * The preset sources are written for: `requested` (a host's or the CLI's `--preset`) when given,
 * else the first `preset = …` a source names, else the first preset that recognises a source
 * (`claude`: a JSON settings file with a `hooks` object), else the default.
 */
export function presetFor(sources: readonly { readonly file: string; readonly format?: 'toml' | 'json'; readonly data: Readonly<Record<string, unknown>> }[], requested?: string): Preset {
  if (requested !== undefined && presets[requested] !== undefined) return presets[requested];
  const named = sources.map((source) => source.data['preset']).find((name): name is string => typeof name === 'string' && presets[name] !== undefined);
  if (named !== undefined) return presets[named]!;
  const recognised = Object.values(presets).find((preset) => sources.some((source) => preset.recognises?.({ ...source, format: source.format ?? 'toml' }) === true));
  return recognised ?? presets[DEFAULT_PRESET]!;
}

/** The preset used when a config does not name one. */
export const DEFAULT_PRESET = 'arc';
