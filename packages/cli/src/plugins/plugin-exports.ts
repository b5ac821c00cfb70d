import { messageOf, type Preset, type Runner, type SandboxProvider } from '@hookline/core';
import {
  interfaceVersionProblem,
  settingsTableOf,
  type PluginInterface,
  type SettingsTable,
} from '@hookline/core/plugin';
import type { PluginOffer } from './plugin-offer.ts';

/** The runners, sandbox providers and presets one plugin module offers, and what went wrong looking. */
export interface PluginExports extends PluginOffer {
  /** Plugin objects of another interface version, each as a sentence naming both versions: never used. */
  readonly mismatched: readonly string[];
  /** Factories that threw when called. */
  readonly broken: readonly string[];
  /** The module's export names, for the "exports nothing that fits" message. */
  readonly exportNames: readonly string[];
}

// Named exports called as factories: `ntfyRunner()`, `fooSandbox()`, `deployPreset()`. Other functions are left alone,
// since calling an arbitrary export could do anything.
const FACTORY_NAME = /(?:Runner|Sandbox|Preset)$/;

/**
 * Finds what a plugin module offers: its default export if that is a runner, provider or preset (or a
 * factory returning one), else every named runner/provider/preset object and `…Runner`/`…Sandbox`/
 * `…Preset` factory.
 * Factories are called with the validated settings of the table they declare as `settingsTable`
 * (`settingsFor`), else with no arguments; per-hook settings belong in the hook's own keys.
 */
export function pluginExports(
  exports: Readonly<Record<string, unknown>>,
  settingsFor: (table: SettingsTable) => unknown = () => undefined,
): PluginExports {
  const found: PluginObjects = {
    runners: [],
    sandboxes: [],
    presets: [],
    settingsTables: [],
    mismatched: [],
    broken: [],
    seen: new Set(),
    settingsFor,
  };
  const exportNames = Object.keys(exports);
  if ('default' in exports) collect('default export', exports['default'], true, found);
  if (found.runners.length === 0 && found.sandboxes.length === 0 && found.presets.length === 0) {
    for (const name of exportNames) {
      if (name !== 'default') collect(`export \`${name}\``, exports[name], FACTORY_NAME.test(name), found);
    }
  }
  const { runners, sandboxes, presets, settingsTables, mismatched, broken } = found;
  return { runners, sandboxes, presets, settingsTables, mismatched, broken, exportNames };
}

interface PluginObjects {
  runners: Runner[];
  sandboxes: SandboxProvider[];
  presets: Preset[];
  settingsTables: SettingsTable[];
  mismatched: string[];
  broken: string[];
  // One value exported under two names (`export { x as default }`) is one plugin, not two.
  seen: Set<unknown>;
  settingsFor: (table: SettingsTable) => unknown;
}

function collect(label: string, value: unknown, callable: boolean, found: PluginObjects): void {
  if (found.seen.has(value)) return;
  found.seen.add(value);
  let candidate = value;
  const table = callable ? settingsTableOf(value) : undefined;
  if (typeof value === 'function' && callable) {
    try {
      candidate = (value as (settings?: unknown) => unknown)(
        table === undefined ? undefined : found.settingsFor(table),
      );
    } catch (error) {
      found.broken.push(`${label} threw when called: ${messageOf(error)}`);
      return;
    }
  }
  if (typeof candidate !== 'object' || candidate === null) return;
  const plugin = candidate as Record<string, unknown>;
  // A runner of an earlier interface had `doRun` beside its types; it is still recognised, to be named.
  const isRunner =
    typeof plugin['types'] === 'object' &&
    plugin['types'] !== null &&
    (typeof plugin['doRun'] === 'function' || 'runnerInterfaceVersion' in plugin);
  const isSandbox = typeof plugin['doOpen'] === 'function' && typeof plugin['name'] === 'string';
  // A preset of an earlier interface has its catalog and command protocol all the same.
  const isPreset =
    Array.isArray(plugin['events']) &&
    typeof plugin['name'] === 'string' &&
    typeof plugin['command'] === 'object' &&
    plugin['command'] !== null;
  if (!isRunner && !isSandbox && !isPreset) return;
  const kind: PluginInterface = isRunner ? 'runner' : isSandbox ? 'sandbox provider' : 'preset';
  const mismatch = interfaceVersionProblem(kind, candidate);
  if (mismatch !== undefined) {
    found.mismatched.push(`${label} is of another version: ${mismatch}`);
    return;
  }
  if (table !== undefined && !found.settingsTables.includes(table)) found.settingsTables.push(table);
  if (isRunner && !found.runners.includes(candidate as Runner)) found.runners.push(candidate as Runner);
  if (isSandbox && !found.sandboxes.includes(candidate as SandboxProvider))
    found.sandboxes.push(candidate as SandboxProvider);
  if (isPreset && !isRunner && !isSandbox && !found.presets.includes(candidate as Preset))
    found.presets.push(candidate as Preset);
}
