import { dirname } from 'node:path';
import { ConfigError, HooklineError, type ConfigSource, type HookConfig, type Runner, type SandboxProvider } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import { FIRST_PARTY_SANDBOXES } from './first-party-packages.ts';
import { loadFirstPartyFactory } from './load-first-party.ts';

/**
 * The sandbox provider `[sandbox] provider` names, loaded only when some enabled hook will run
 * sandboxed (so a config of `sandbox = false` hooks never imports a provider). A plugin's provider
 * wins over a first-party one of the same name. The provider's factory gets the
 * `[sandbox.<provider>]` table as its settings, when there is one, with `baseDir` set to the folder
 * of the file that wrote it (relative mount paths mean "next to the config"). Settings the provider
 * rejects are reported as config problems at that table's line.
 */
export async function loadSandbox(
  config: HookConfig,
  runners: readonly Runner[],
  plugins: readonly SandboxProvider[],
  folders: readonly string[],
  sources: readonly ConfigSource[],
): Promise<SandboxProvider | undefined> {
  const needed = config.hooks.some((hook) => hook.enabled && hook.sandbox && runners.some((runner) => runner.types[hook.type]?.usesSandbox === true));
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
  const settings = config.sandbox.settings[name];
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return factory() as SandboxProvider;
  const source = sources.findLast((candidate) => tableOf(tableOf(candidate.data['sandbox'])?.[name]) !== undefined);
  try {
    return factory({ ...(source === undefined ? {} : { baseDir: dirname(source.file) }), ...settings }) as SandboxProvider;
  } catch (error) {
    const issues = settingsIssues(error);
    if (source === undefined || issues === undefined) throw error;
    const line = source.lines.topLevel('sandbox') ?? 1;
    throw new ConfigError(issues.map((issue) => ({ file: source.file, line, message: `[sandbox.${name}]${issue.key === '' ? '' : ` ${issue.key}`}: ${issue.message}` })));
  }
}

/** One problem a provider's factory found in its settings (`DockerSettingsError` carries a list). */
interface SettingsIssue {
  readonly key: string;
  readonly message: string;
}

// The settings problems a Hookline error carries, when it is one that lists them.
function settingsIssues(error: unknown): readonly SettingsIssue[] | undefined {
  if (!HooklineError.isInstance(error) || !('issues' in error) || !Array.isArray(error.issues)) return undefined;
  const listed: readonly unknown[] = error.issues;
  return listed.every(isSettingsIssue) ? listed : undefined;
}

function isSettingsIssue(value: unknown): value is SettingsIssue {
  return typeof value === 'object' && value !== null && 'key' in value && typeof value.key === 'string' && 'message' in value && typeof value.message === 'string';
}

function tableOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
