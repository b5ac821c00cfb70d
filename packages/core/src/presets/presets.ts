import { arcPreset } from './arc-preset.ts';
import type { Preset } from './preset.ts';

/** The presets this core knows, by name. `task` and `agent` (SPEC §12) join this table. */
export const presets: Readonly<Record<string, Preset>> = { arc: arcPreset };

/** The preset used when a config does not name one. */
export const DEFAULT_PRESET = 'arc';
