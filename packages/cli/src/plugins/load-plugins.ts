import { dirname } from 'node:path';
import { messageOf, type ConfigIssue, type Preset, type Runner, type SandboxProvider } from '@hookline/core';
import { RUNNER_INTERFACE_VERSION, type SettingsTable } from '@hookline/core/plugin';
import type { ReadConfigFile } from '../config/read-config-files.ts';
import { importModule } from './import-module.ts';
import { validSettings } from './load-runners.ts';
import { pluginExports } from './plugin-exports.ts';
import type { PluginOffer } from './plugin-offer.ts';

/** What the configs' `plugins` lists gave: runners, providers and presets, or the problems, located. */
export interface LoadedPlugins extends PluginOffer {
  readonly issues: readonly ConfigIssue[];
}

/**
 * Imports every package named in a config's `plugins`, resolved from that config file's folder,
 * before the config is validated — their hook types decide what is valid. A plugin that
 * is missing, throws on import or offers no runner is an issue at the `plugins` line.
 */
export async function loadPlugins(files: readonly ReadConfigFile[]): Promise<LoadedPlugins> {
  const runners: Runner[] = [];
  const sandboxes: SandboxProvider[] = [];
  const presets: Preset[] = [];
  const settingsTables: SettingsTable[] = [];
  const issues: ConfigIssue[] = [];
  const sources = files.map((file) => file.source);
  const loaded = new Set<string>();
  for (const { file, source } of files) {
    const line = source.lines.topLevel('plugins');
    const at = { file: file.label, ...(line === undefined ? {} : { line }) };
    for (const name of source.plugins) {
      const imported = await importModule(name, [dirname(file.path)]);
      if (imported.status === 'missing') {
        issues.push({
          ...at,
          message: `plugin "${name}" is not installed: ${imported.reason}`,
          fix: `install it next to ${file.label} (npm install ${name}), or remove it from \`plugins\``,
        });
        continue;
      }
      if (imported.status === 'failed') {
        const reason = messageOf(imported.error);
        issues.push({
          ...at,
          message: `plugin "${name}" failed to load: ${reason}`,
          fix: 'the plugin itself is broken; reinstall it or report it to its authors',
        });
        continue;
      }
      // Two layers naming one plugin load it once; its types must not be registered twice.
      if (loaded.has(imported.url)) continue;
      loaded.add(imported.url);
      const offered = pluginExports(imported.exports, (table) => validSettings(table, sources));
      settingsTables.push(...offered.settingsTables);
      for (const problem of offered.broken)
        issues.push({
          ...at,
          message: `plugin "${name}": its ${problem}`,
          fix: 'the plugin itself is broken; report it to its authors',
        });
      for (const problem of offered.mismatched) {
        issues.push({
          ...at,
          message: `plugin "${name}": its ${problem}`,
          fix: `install versions of ${name} and @hookline/cli made for the same @hookline/core`,
        });
      }
      if (
        offered.runners.length === 0 &&
        offered.sandboxes.length === 0 &&
        offered.presets.length === 0 &&
        offered.broken.length === 0 &&
        offered.mismatched.length === 0
      ) {
        const names =
          offered.exportNames.length === 0 ? 'it exports nothing' : `its exports: ${offered.exportNames.join(', ')}`;
        issues.push({
          ...at,
          message: `plugin "${name}" offers no Hookline runner (${names})`,
          fix: `a plugin exports a runner (defineRunner from @hookline/core, runner interface ${RUNNER_INTERFACE_VERSION}) as its default export or as a named \`…Runner\` factory — or a preset (definePreset) as its default export or a named \`…Preset\``,
        });
      }
      runners.push(...offered.runners);
      sandboxes.push(...offered.sandboxes);
      presets.push(...offered.presets);
    }
  }
  return { runners, sandboxes, presets, settingsTables, issues };
}
