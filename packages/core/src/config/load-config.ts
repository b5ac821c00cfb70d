import { ConfigError } from '../errors/config-error.ts';
import { MAX_HOOKS, tooManyHooksIssue } from './config-bounds.ts';
import type { Runner } from '../plugins/runner.ts';
import type { SettingsTable } from '../plugins/settings-table.ts';
import { createRunnerRegistry, type RunnerRegistry } from '../plugins/runner-registry.ts';
import type { EventSpec, Preset } from '../presets/preset.ts';
import { findEvent } from '../presets/preset.ts';
import { builtInPresets } from '../presets/built-in-presets.ts';
import type { PresetRegistry } from '../presets/preset-registry.ts';
import { nearestWord } from './nearest-word.ts';
import { suggestPreset, type ActivePreset } from './suggest-preset.ts';
import { formatConfigIssue, type ConfigIssue } from './config-issue.ts';
import type { HookConfig, HookDefinition } from './hook-definition.ts';
import type { HookEntry } from './hook-entry.ts';
import { hookSchemas, type HookSchemas } from './hook-schemas.ts';
import { layerEntries } from './layer-entries.ts';
import { readConfigSource, type ConfigSource, type ConfigText } from './read-config-source.ts';
import { readSettingsTables } from './read-settings-tables.ts';
import { validateLayer } from './validate-layer.ts';

/** What the loader validates hooks against. */
export interface LoadConfigOptions {
  /** The runners that will execute the hooks; their types and schemas decide what is valid. */
  readonly runners: readonly Runner[];
  /**
   * The preset to load the sources as (the CLI's `--preset`). Without it: the one the sources name
   * with `preset = …`, else the one that recognises them (a JSON settings file with a `hooks` object
   * is `claude`), else `arc`. A source naming another preset is an error.
   */
  readonly preset?: string;
  /**
   * The settings tables the host's plugins read (`llmRunner.settingsTable`, `dockerSandbox.settingsTable`):
   * validated with the hooks, their output in `HookConfig.settings` for the factories.
   */
  readonly settingsTables?: readonly SettingsTable[];
  /**
   * Presets the host's plugins offer (made with `definePreset`), known besides the built-in ones: a
   * source may name them with `preset = …`, and they recognise sources as the built-in ones do.
   */
  readonly presets?: readonly Preset[];
  /**
   * Hooks of guard events — events that block by default and whose host honours `block` — fail
   * closed unless they set `on_error` themselves: `hookline bridge`, where a failure must never read
   * as an approval, whatever the preset's event default (`claude`'s mirrors Claude Code: proceed).
   */
  readonly guardsFailClosed?: boolean;
}

/**
 * Loads configuration from sources in layering order (user layer first, project file last) into the
 * effective hooks, fully defaulted. Every problem of every source is collected; if there is any, a
 * {@link ConfigError} carrying all of them is thrown and nothing is returned, so nothing can run.
 */
export function loadConfig(sources: ReadonlyArray<ConfigText | ConfigSource>, options: LoadConfigOptions): HookConfig {
  const parsed = sources.map((source) => ('text' in source ? readConfigSource(source) : source));
  const registry = createRunnerRegistry(options.runners);
  const issues: ConfigIssue[] = [];
  const presets = builtInPresets.with(options.presets ?? []);
  const active = choosePreset(parsed, issues, options.preset, presets);
  const { preset } = active;
  const tables = options.settingsTables ?? [];
  const settingsTables = tables.map((table) => table.path.split('.')[0]!);
  const schemas = cachedHookSchemas(preset, registry);
  const layers = parsed.map((source) => {
    const layer = validateLayer(source, { preset, presets, runners: registry, schemas, settingsTables });
    if (layer.issues.length === 0 && (layer.tolerated ?? []).length === 0) return layer;
    // A file written for another preset gets one issue naming it instead of one per foreign key.
    const suggestion = suggestPreset(source, active, presets);
    if (suggestion === undefined) return layer;
    return layer.issues.length > 0 ? { ...layer, issues: [suggestion] } : { ...layer, tolerated: [suggestion] };
  });
  for (const layer of layers) issues.push(...layer.issues);
  const read = readSettingsTables(
    parsed.filter((source) => source.parseIssue === undefined),
    tables,
  );
  issues.push(...read.issues);
  // A preset that keeps valid hooks running fails the load only for a file it cannot parse.
  const tolerated = layers.flatMap((layer) => layer.tolerated ?? []);
  if (preset.invalidHooks === 'fail-when-selected') {
    const fatal = (issue: ConfigIssue): boolean =>
      issue.file === '<options>' ||
      parsed.some((source) => source.parseIssue !== undefined && source.file === issue.file);
    tolerated.push(...issues.filter((issue) => !fatal(issue)));
    issues.splice(0, issues.length, ...issues.filter(fatal));
  }
  if (issues.length > 0) throw new ConfigError(inFileOrder(issues, parsed));
  const problems = inFileOrder(tolerated, parsed);

  const layered = layerEntries(layers, preset.layering);
  if (layered.hooks.length > MAX_HOOKS)
    throw new ConfigError([tooManyHooksIssue(parsed.at(-1)!.file, layered.hooks.length)]);
  let provider = 'local';
  const settings: Record<string, unknown> = {};
  for (const layer of layers) {
    if (layer.sandbox?.provider !== undefined) provider = layer.sandbox.provider;
    Object.assign(settings, layer.sandbox?.settings);
  }
  return {
    preset: preset.name,
    plugins: [...new Set(layers.flatMap((layer) => layer.plugins))],
    sandbox: { provider, settings },
    settings: read.settings,
    hooks: layered.hooks.map((entry) => resolveDefaults(entry, preset, registry, options.guardsFailClosed === true)),
    warnings: [...layers.flatMap((layer) => layer.warnings), ...read.warnings, ...layered.warnings],
    ...(problems.length === 0 ? {} : { problems }),
    ...(problems.length === 0 && layered.notices.length === 0
      ? {}
      : { notices: [...problems.map(problemNotice), ...layered.notices] }),
  };
}

// What every outcome says about a tolerated problem, until it is fixed.
function problemNotice(issue: ConfigIssue): string {
  const left = issue.hook === undefined ? 'that part was not loaded' : 'the hook fails wherever it is selected';
  return `config problem: ${formatConfigIssue(issue)} (${left}; the other hooks run)`;
}

// Hosts load the same preset with the same runners again and again (the CLI once per command, a
// server per reload): the hook schemas are built once per preset and set of type declarations.
const schemasByPreset = new WeakMap<
  Preset,
  Array<{ readonly types: readonly object[]; readonly schemas: HookSchemas }>
>();

function cachedHookSchemas(preset: Preset, registry: RunnerRegistry): HookSchemas {
  const types = registry.types.map((type) => registry.find(type)!.type);
  const cached = schemasByPreset.get(preset) ?? [];
  const found = cached.find(
    (entry) => entry.types.length === types.length && entry.types.every((type, index) => type === types[index]),
  );
  if (found !== undefined) return found.schemas;
  const schemas = hookSchemas(preset, Object.fromEntries(registry.types.map((type, index) => [type, types[index]!])));
  // A few sets per preset at most; a host that makes runners afresh each time keeps only the latest.
  schemasByPreset.set(preset, [...cached.slice(-3), { types, schemas }]);
  return schemas;
}

// Each file's issues together, top to bottom, files in layering order.
function inFileOrder(issues: readonly ConfigIssue[], sources: readonly ConfigSource[]): ConfigIssue[] {
  const order = (file: string): number => {
    const index = sources.findIndex((source) => source.file === file);
    return index === -1 ? -1 : index;
  };
  return [...issues].sort((a, b) => order(a.file) - order(b.file) || (a.line ?? 0) - (b.line ?? 0));
}

// All layers must speak one preset: the catalog decides which events (and dialect) are valid.
function choosePreset(
  sources: readonly ConfigSource[],
  issues: ConfigIssue[],
  requested: string | undefined,
  presets: PresetRegistry,
): ActivePreset {
  if (requested !== undefined && presets.get(requested) === undefined) {
    const names = presets.names;
    const near = nearestWord(requested, names);
    issues.push({
      file: '<options>',
      message: `unknown preset "${requested}"`,
      fix: `${near === undefined ? '' : `did you mean "${near}"? `}known presets: ${names.join(', ')}`,
    });
  }
  let chosen: { name: string; file?: string } | undefined =
    requested !== undefined && presets.get(requested) !== undefined ? { name: requested } : undefined;
  for (const source of sources) {
    const name = source.data['preset'];
    if (typeof name !== 'string' || presets.get(name) === undefined) continue;
    if (chosen === undefined) chosen = { name, file: source.file };
    else if (chosen.name !== name) {
      issues.push({
        file: source.file,
        line: source.lines.topLevel('preset') ?? 1,
        message:
          chosen.file === undefined
            ? `preset "${name}" differs from the requested preset "${chosen.name}"`
            : `preset "${name}" differs from preset "${chosen.name}" of ${chosen.file}`,
        fix: 'layers of one configuration must use the same preset; make them agree',
      });
    }
  }
  if (chosen === undefined) return { preset: presets.presetFor(sources) };
  return { preset: presets.get(chosen.name)!, namedIn: chosen.file ?? '--preset' };
}

function isGuard(event: EventSpec): boolean {
  return event.blocking && event.honours.includes('block');
}

// A hook's own key beats its event's default and the preset's, which beat the hook type's default.
function resolveDefaults(
  entry: HookEntry,
  preset: Preset,
  registry: RunnerRegistry,
  failClosed: boolean,
): HookDefinition {
  // Validation guarantees the event exists, and the type unless the hook is broken (it never runs).
  const event = findEvent(preset, entry.event)!;
  const type = registry.find(entry.type)?.type ?? { defaultTimeoutMs: 60_000, defaultOnError: 'block' as const };
  const blocking = entry.blocking ?? event.blocking;
  return {
    name: entry.name,
    event: entry.event,
    type: entry.type,
    ...(entry.matcher === undefined ? {} : { matcher: entry.matcher, matcherPattern: entry.matcherPattern! }),
    blocking,
    timeoutMs: entry.timeoutMs ?? preset.hookDefaults?.timeoutMs?.[entry.type] ?? type.defaultTimeoutMs,
    sandbox: entry.sandbox ?? preset.hookDefaults?.sandbox ?? true,
    onError: entry.onError ?? (failClosed && isGuard(event) ? 'block' : (event.onError ?? type.defaultOnError)),
    enabled: entry.enabled ?? true,
    ...(entry.locked === true ? { locked: true } : {}),
    ...(entry.layering === undefined ? {} : { layering: entry.layering }),
    ...(entry.disabledAt === undefined ? {} : { disabledAt: entry.disabledAt }),
    // An event's durable default covers its non-blocking hooks; validation refuses durable blocking ones.
    durable: entry.durable ?? (!blocking && event.durable === true),
    options: entry.options,
    ...(entry.broken === undefined ? {} : { broken: entry.broken }),
    source: { file: entry.file, line: entry.line, index: entry.index },
  };
}
