import { HooklineError } from './hookline-error.ts';

/** Thrown by `definePreset` for a preset that contradicts itself: every problem at once. */
export class PresetError extends HooklineError {
  readonly preset: string;
  readonly problems: readonly string[];

  constructor(preset: string, problems: readonly string[]) {
    super(
      'HOOKLINE_PRESET_INVALID',
      `Preset ${JSON.stringify(preset)} is not valid: ${problems.join('; ')}. Fix the definePreset call.`,
    );
    this.name = 'PresetError';
    this.preset = preset;
    this.problems = problems;
  }
}
