import type { Preset } from './preset.ts';
import { findEvent } from './preset.ts';
import { presets } from './presets.ts';

/**
 * The names of the presets other than `current` whose catalog has `event`: an event unknown to the
 * active preset is often one of another preset's, and the fix is then to name that preset.
 */
export function presetsWithEvent(event: string, current: Preset): string[] {
  return Object.values(presets)
    .filter((preset) => preset.name !== current.name && findEvent(preset, event) !== undefined)
    .map((preset) => preset.name);
}
