import { dirname } from 'node:path';
import type { ConfigSource, HookConfig, Runner, SandboxProvider } from '@hookline/core';
import { settingsTableOf } from '@hookline/core/plugin';
import { CliError } from '../cli-error.ts';
import { announceWatch } from '../config/protected-path-watch.ts';
import { FIRST_PARTY_SANDBOXES } from './first-party-packages.ts';
import { loadFirstPartyFactory } from './load-first-party.ts';

/**
 * The sandbox provider `[sandbox] provider` names, loaded only when some enabled hook will run
 * sandboxed (so a config of `sandbox = false` hooks never imports a provider). A plugin's provider
 * wins over a first-party one of the same name. The provider's factory gets its `[sandbox.<provider>]`
 * table as the loader validated it (`config.settings`), when there is one, with `baseDir` set to the
 * folder of the last file that wrote it unless the table says `base_dir` (relative paths mean "next
 * to the config"). A first-party provider that is a boundary also gets `protectedPaths`: what the
 * CLI knows decides what runs outside the sandbox later (see `protectedHostPaths`), and
 * `hiddenPaths`: what no hook may read (see `hiddenHostPaths`).
 */
export async function loadSandbox(
  config: HookConfig,
  runners: readonly Runner[],
  plugins: readonly SandboxProvider[],
  folders: readonly string[],
  sources: readonly ConfigSource[],
  protectedPaths: () => readonly string[] = () => [],
  hiddenPaths: () => readonly string[] = () => [],
): Promise<SandboxProvider | undefined> {
  const needed = config.hooks.some(
    (hook) => hook.enabled && hook.sandbox && runners.some((runner) => runner.types[hook.type]?.usesSandbox === true),
  );
  if (!needed) return undefined;
  const name = config.sandbox.provider;
  const plugin = plugins.find((provider) => provider.name === name);
  if (plugin !== undefined) return plugin;
  const entry = Object.hasOwn(FIRST_PARTY_SANDBOXES, name) ? FIRST_PARTY_SANDBOXES[name] : undefined;
  if (entry === undefined) {
    const known = [...Object.keys(FIRST_PARTY_SANDBOXES), ...plugins.map((provider) => provider.name)];
    throw new CliError(
      'HOOKLINE_CLI_SANDBOX_UNKNOWN',
      `the config selects sandbox provider "${name}", which neither Hookline nor a loaded plugin provides (known: ${known.join(', ')}); set [sandbox] provider to one of them, or add the plugin that provides it to \`plugins\`.`,
    );
  }
  const factory = await loadFirstPartyFactory(entry, folders);
  if (factory === undefined) {
    throw new CliError(
      'HOOKLINE_CLI_SANDBOX_MISSING',
      `the config selects sandbox provider "${name}", but ${entry.package} is not installed; install it (npm install ${entry.package}), set [sandbox] provider = "local", or set sandbox = false on the hooks.`,
    );
  }
  const table = settingsTableOf(factory);
  const settings = table === undefined ? config.sandbox.settings[name] : config.settings[table.path];
  const protection =
    entry.protects === true
      ? { protectedPaths: protectedPaths(), hiddenPaths: hiddenPaths(), onWatch: announceWatch }
      : {};
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    return factory(entry.protects === true ? protection : undefined) as SandboxProvider;
  const source = sources.findLast((candidate) => tableOf(tableOf(candidate.data['sandbox'])?.[name]) !== undefined);
  return factory({
    ...(source === undefined ? {} : { baseDir: dirname(source.file) }),
    ...settings,
    ...protection,
  }) as SandboxProvider;
}

function tableOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
