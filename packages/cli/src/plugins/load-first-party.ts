import { messageOf } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { FirstPartyPackage } from './first-party-packages.ts';
import type { ImportedModule } from './import-module.ts';

// Set by the bundled build (scripts/bundle.ts): packages it carries as files of its own next to this
// module, by package name, e.g. runner-command, which every command hook needs, as one file instead
// of its ≈ 20 modules. Undeclared when the sources run as they are.
declare const HOOKLINE_BUILT_IN_PACKAGES: Readonly<Record<string, string>> | undefined;
const BUILT_IN_PACKAGES: Readonly<Record<string, string>> =
  typeof HOOKLINE_BUILT_IN_PACKAGES === 'undefined' ? {} : HOOKLINE_BUILT_IN_PACKAGES;

/**
 * Imports a first-party package from the CLI's own dependencies, else from `folders` (a runner
 * installed in the project). The first look is Node's own resolution from this module
 * (`import.meta.resolve`): exact, and it costs no module of ours on the `emit` path.
 */
export async function importFirstParty(packageName: string, folders: readonly string[]): Promise<ImportedModule> {
  let url: string | undefined;
  try {
    const builtIn = BUILT_IN_PACKAGES[packageName];
    url = builtIn === undefined ? import.meta.resolve(packageName) : new URL(builtIn, import.meta.url).href;
  } catch (error) {
    // Installed but with no importable entry point is broken, not missing.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND')
      return { status: 'failed', url: packageName, error };
  }
  if (url === undefined) return (await import('./import-module.ts')).importModule(packageName, folders);
  try {
    return { status: 'loaded', url, exports: (await import(url)) as Record<string, unknown> };
  } catch (error) {
    return { status: 'failed', url, error };
  }
}

/**
 * A first-party package's factory export, or `undefined` when the package is not installed — the
 * caller lets core's validation say which package to install. Installed but broken is an error.
 */
export async function loadFirstPartyFactory(
  entry: FirstPartyPackage,
  folders: readonly string[],
): Promise<((settings?: unknown) => unknown) | undefined> {
  const imported = await importFirstParty(entry.package, folders);
  if (imported.status === 'missing') return undefined;
  const factory = loadedExport(imported, entry.package, entry.factory);
  if (typeof factory !== 'function') {
    throw new CliError(
      'HOOKLINE_CLI_PLUGIN_BROKEN',
      `${entry.package} does not export ${entry.factory}(); install a version that matches @hookline/cli.`,
    );
  }
  return factory as (settings?: unknown) => unknown;
}

/** One export of an imported module; a module that failed to import is an error naming the package. */
export function loadedExport(
  imported: Exclude<ImportedModule, { status: 'missing' }>,
  packageName: string,
  name: string,
): unknown {
  if (imported.status === 'failed') {
    const reason = messageOf(imported.error);
    throw new CliError(
      'HOOKLINE_CLI_PLUGIN_BROKEN',
      `${packageName} is installed but failed to load: ${reason}. Reinstall it.`,
      { cause: imported.error },
    );
  }
  return imported.exports[name];
}
