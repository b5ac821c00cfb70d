import { withoutBridgeEntries } from '../agents/without-bridge-entries.ts';
import { dirname } from 'node:path';
import {
  builtInPresets,
  ConfigError,
  configHookTypes,
  loadConfig,
  nearestWord,
  type ConfigSource,
  type HookConfig,
  type PresetRegistry,
} from '@hookline/core';
import { journalSettingsTable } from '@hookline/core/plugin';
import { CliError } from '../cli-error.ts';
import { FIRST_PARTY_RUNNERS } from '../plugins/first-party-packages.ts';
import { loadFirstPartyRunners } from '../plugins/load-runners.ts';
import { loadedExport, importFirstParty } from '../plugins/load-first-party.ts';
import type { LoadedPlugins } from '../plugins/load-plugins.ts';
import type { PluginOffer } from '../plugins/plugin-offer.ts';
import { sandboxSettingsTables } from '../plugins/sandbox-settings-tables.ts';
import { refuseWatchedFiles } from './refuse-watched-files.ts';
import { findConfigFiles } from './find-config-files.ts';
import { readConfigFiles, type ReadConfigFile } from './read-config-files.ts';

const NO_PLUGINS: LoadedPlugins = { runners: [], sandboxes: [], presets: [], settingsTables: [], issues: [] };

/** The config files read and the runners they need, before validation. */
export interface RunnerSetup {
  readonly files: readonly ReadConfigFile[];
  readonly sources: readonly ConfigSource[];
  /** Where the CLI looked, when no config file was given or found. */
  readonly searched: readonly string[];
  /** The runners the config needs: the first-party ones it uses and every plugin's. */
  readonly runners: PluginOffer['runners'];
  /** Sandbox providers offered by plugins. */
  readonly pluginSandboxes: PluginOffer['sandboxes'];
  /** The built-in presets and those the plugins offer: what `preset = …` and `--preset` may name. */
  readonly presets: PresetRegistry;
  /** The settings tables of the loaded runners and plugins. */
  readonly settingsTables: PluginOffer['settingsTables'];
  /** The config files' folders and the working directory: where project-installed packages are found. */
  readonly folders: readonly string[];
  /**
   * runner-script's script-host module, when this process lacks the Node flags the config's script
   * hooks need and the script host stands in: `loadSetup` connects to it once the config is valid
   * (none is started for a broken one).
   */
  readonly scriptHost?: ScriptHostModule;
}

/** A validated configuration and the plugins it was loaded with. */
export interface Setup extends RunnerSetup {
  readonly config: HookConfig;
}

/** How to load. */
export interface SetupOptions {
  /** `--config` files; default discovery when absent or empty. */
  readonly configFiles?: readonly string[] | undefined;
  /** `--preset`: the preset to read the files as; with `claude`, discovery finds Claude Code's settings. */
  readonly preset?: string | undefined;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Load every installed first-party runner, not just the types the config uses: for `validate`
   * (richer hints, e.g. which type a stray key belongs to) and `schema`.
   */
  readonly allRunners?: boolean;
  /**
   * The command will run hooks: script hooks, which need Node flags the process lacks, go to the
   * script host, or make it restart with them (runner-script's `NodeFlagsRequired`) before anything ran.
   */
  readonly runsHooks?: boolean;
  /** Guard events' hooks fail closed unless they set `on_error` (`hookline bridge`). */
  readonly guardsFailClosed?: boolean;
  /** Hooks that run `hookline bridge` itself are left out, with a warning (`hookline bridge`: no recursion). */
  readonly skipsBridgeEntries?: boolean;
}

/**
 * Finds and reads the config files, loads their plugins, and imports the first-party runners their
 * hook types need — and no others. Plugin problems throw a `ConfigError` (with the files' TOML
 * syntax errors, since validation cannot run without the plugins).
 */
export async function loadRunnerSetup(options: SetupOptions): Promise<RunnerSetup> {
  // A preset a plugin offers is known once the plugins are loaded; discovery knows the built-in ones.
  const found = findConfigFiles(
    options.configFiles,
    options.cwd,
    options.env,
    options.preset === undefined ? undefined : builtInPresets.get(options.preset),
  );
  refuseWatchedFiles(found.files);
  const files = readConfigFiles(found.files);
  const sources = files.map((file) => file.source);
  // Most configs name no plugin: the plugin loader is then not even imported (startup time).
  const plugins: LoadedPlugins = sources.some((source) => source.plugins.length > 0)
    ? await (await import('../plugins/load-plugins.ts')).loadPlugins(files)
    : NO_PLUGINS;
  if (plugins.issues.length > 0) {
    throw new ConfigError([
      ...sources.flatMap((source) => (source.parseIssue === undefined ? [] : [source.parseIssue])),
      ...plugins.issues,
    ]);
  }
  const presets = builtInPresets.with(plugins.presets);
  if (options.preset !== undefined && presets.get(options.preset) === undefined) {
    const near = nearestWord(options.preset, presets.names);
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `unknown preset "${options.preset}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; known presets: ${presets.names.join(', ')}.`,
    );
  }
  const pluginTypes = new Set(plugins.runners.flatMap((runner) => Object.keys(runner.types)));
  // Through the preset's dialect: an `agent` shell action is a `command` hook, an http action `http`.
  const used = configHookTypes(sources, options.preset, presets);
  const folders = [...new Set([...files.map((file) => dirname(file.file.path)), options.cwd])];
  // First-party script hooks: runner-script says where they run (this process, its script host, or
  // — thrown — a restart with the Node flags they need), before its runner loads.
  const scriptHost =
    options.runsHooks === true && used.has('script') && !pluginTypes.has('script')
      ? await scriptHostFor(folders, options.env)
      : undefined;
  const wanted = options.allRunners === true ? Object.keys(FIRST_PARTY_RUNNERS) : used;
  const firstParty = await loadFirstPartyRunners(
    [...wanted].filter((type) => !pluginTypes.has(type)),
    folders,
    used,
    sources,
  );
  const sandboxTables = await sandboxSettingsTables(sources, folders, false);
  return {
    files,
    sources,
    searched: found.searched,
    runners: [...firstParty.runners, ...plugins.runners],
    pluginSandboxes: plugins.sandboxes,
    presets,
    // `[journal]` is every journal's: declared whether or not the config has durable hooks.
    settingsTables: [journalSettingsTable, ...firstParty.settingsTables, ...plugins.settingsTables, ...sandboxTables],
    folders,
    ...(scriptHost === undefined ? {} : { scriptHost }),
  };
}

/** The exports of `@hookline/runner-script/script-host` the CLI calls. */
type ScriptHostModule = typeof import('@hookline/runner-script/script-host');

/**
 * runner-script's script-host module when script hooks must go to the script host; undefined when
 * they run in this process or runner-script is not installed (core's validation then says to install it).
 */
async function scriptHostFor(
  folders: readonly string[],
  env: SetupOptions['env'],
): Promise<ScriptHostModule | undefined> {
  const name = `${FIRST_PARTY_RUNNERS['script']!.package}/script-host`;
  const imported = await importFirstParty(name, folders);
  if (imported.status === 'missing') return undefined;
  // Throws the "installed but failed to load: reinstall it" error for a broken install.
  if (typeof loadedExport(imported, name, 'withScriptHost') !== 'function' || imported.status !== 'loaded') {
    throw new CliError(
      'HOOKLINE_CLI_PLUGIN_BROKEN',
      `${name} does not export withScriptHost(); install a version of @hookline/runner-script that matches @hookline/cli.`,
    );
  }
  const scriptHost = imported.exports as ScriptHostModule;
  return scriptHost.scriptHookProcess(env) === 'script-host' ? scriptHost : undefined;
}

/**
 * {@link loadRunnerSetup}, then core's loader: every problem of every file at once, as a
 * `ConfigError`, or the effective hooks.
 */
export async function loadSetup(options: SetupOptions): Promise<Setup> {
  const setup = await loadRunnerSetup(options);
  const loaded = loadConfig(setup.sources, {
    runners: setup.runners,
    settingsTables: setup.settingsTables,
    presets: setup.presets.all,
    ...(options.preset === undefined ? {} : { preset: options.preset }),
    ...(options.guardsFailClosed === true ? { guardsFailClosed: true } : {}),
  });
  const config = options.skipsBridgeEntries === true ? withoutBridgeEntries(loaded) : loaded;
  if (setup.scriptHost === undefined) return { ...setup, config };
  const { cliBuild } = await import('../cli-build.ts');
  return {
    ...setup,
    config,
    runners: await setup.scriptHost.withScriptHost(setup.runners, {
      env: options.env,
      cwd: options.cwd,
      build: cliBuild(),
    }),
  };
}
