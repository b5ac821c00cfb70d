import { PRESET_INTERFACE_VERSION } from '../presets/preset.ts';
import { JOURNAL_INTERFACE_VERSION } from './journal.ts';
import { RUNNER_INTERFACE_VERSION } from './runner.ts';
import { SANDBOX_PROVIDER_INTERFACE_VERSION } from './sandbox-provider.ts';

/** The plugin interfaces, each versioned on its own, by the field that carries its version. */
const INTERFACES = {
  runner: { label: 'Runner', field: 'runnerInterfaceVersion', version: RUNNER_INTERFACE_VERSION },
  'sandbox provider': {
    label: 'Sandbox provider',
    field: 'sandboxProviderInterfaceVersion',
    version: SANDBOX_PROVIDER_INTERFACE_VERSION,
  },
  journal: { label: 'Journal', field: 'journalInterfaceVersion', version: JOURNAL_INTERFACE_VERSION },
  preset: { label: 'Preset', field: 'presetInterfaceVersion', version: PRESET_INTERFACE_VERSION },
} as const;

/** One of the plugin interfaces a core speaks. */
export type PluginInterface = keyof typeof INTERFACES;

/**
 * Why `plugin` does not implement this core's version of `kind`, naming the plugin and both
 * versions; `undefined` when it does. A plugin made before the interfaces had versions of their own
 * carries the shared `specificationVersion` instead, and is named as such.
 */
export function interfaceVersionProblem(kind: PluginInterface, plugin: unknown): string | undefined {
  const { label, field, version } = INTERFACES[kind];
  // Read, not spread: a plugin written as a class keeps its fields on the prototype.
  const read = (key: string): unknown =>
    typeof plugin === 'object' && plugin !== null ? Reflect.get(plugin, key) : undefined;
  const found = read(field);
  if (found === version) return undefined;
  const named = read('name');
  const name = typeof named === 'string' ? `"${named}"` : String(plugin);
  const shared = read('specificationVersion');
  const speaks =
    found !== undefined
      ? `${kind} interface ${plainText(found)}`
      : shared !== undefined
        ? `the shared plugin interface ${plainText(shared)} of an earlier @hookline/core`
        : `no ${kind} interface (it has no ${field})`;
  return `${label} ${name} implements ${speaks}, but this @hookline/core speaks ${kind} interface ${version}`;
}

// A version as the plugin wrote it: a string as is (`v3`), anything else as JSON.
function plainText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
