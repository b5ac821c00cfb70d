import type { Preset, Runner, SandboxProvider } from '@hookline/core';
import type { SettingsTable } from '@hookline/core/plugin';

/** What plugin modules offer the CLI. */
export interface PluginOffer {
  readonly runners: readonly Runner[];
  readonly sandboxes: readonly SandboxProvider[];
  /** Presets (`definePreset`), known besides the built-in ones: for `preset = …`, `--preset`, `init`, `schema`. */
  readonly presets: readonly Preset[];
  /**
   * The settings tables their factories declare (`factory.settingsTable`, e.g. `[models]`,
   * `[sandbox.docker]`): core validates them with the hooks, and `hookline schema` describes them.
   */
  readonly settingsTables: readonly SettingsTable[];
}
