import { agentPreset } from './agent-preset.ts';
import { arcPreset } from './arc-preset.ts';
import type { Preset } from './preset.ts';
import { taskPreset } from './task-preset.ts';

/** The presets this core knows, by name (SPEC §3, §12). */
export const presets: Readonly<Record<string, Preset>> = { arc: arcPreset, task: taskPreset, agent: agentPreset };

/** The preset used when a config does not name one. */
export const DEFAULT_PRESET = 'arc';
