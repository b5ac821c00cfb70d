import * as v from 'valibot';
import type { RunnerRegistry } from '../plugins/runner-registry.ts';
import type { Preset } from '../presets/preset.ts';
import type { PresetRegistry } from '../presets/preset-registry.ts';
import { canonicalDialect } from './canonical-dialect.ts';
import type { ConfigDialect } from './config-dialect.ts';
import type { ConfigIssue } from './config-issue.ts';
import type { ConfigLayer } from './config-layer.ts';
import type { LayerEntry } from './hook-entry.ts';
import { nearestWord } from './nearest-word.ts';
import type { ConfigSource } from './read-config-source.ts';
import type { HookSchemas } from './hook-schemas.ts';
import { PLUGINS, presetKey, SANDBOX_PROVIDER, TOP_LEVEL_KEYS } from './top-level-keys.ts';
import { readDialect } from './read-dialect.ts';
import { validateHook } from './validate-hook.ts';

/** What a source is validated against. */
export interface LayerScope {
  readonly preset: Preset;
  /** Every preset the host knows: a source may only name one of them. */
  readonly presets: PresetRegistry;
  readonly runners: RunnerRegistry;
  /** The preset's hook schemas for the installed types. */
  readonly schemas: HookSchemas;
  /** The top-level tables plugins declare (`models`). */
  readonly settingsTables: readonly string[];
}

/**
 * Validates one parsed source against the preset and the installed runners. Unknown top-level keys
 * are only warned about (the file may carry a host's other settings), unless they look like a typo of
 * a known key, which is an error.
 */
export function validateLayer(source: ConfigSource, scope: LayerScope): ConfigLayer {
  const { preset } = scope;
  const { file, data } = source;
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  if (source.parseIssue !== undefined) return { file, plugins: [], entries: [], issues: [source.parseIssue], warnings };
  // Everything below a file that parsed is tolerated by a preset that keeps valid hooks running.
  const tolerant = preset.invalidHooks === 'fail-when-selected';
  const tolerated: ConfigIssue[] = [];

  const dialect = preset.dialect ?? canonicalDialect;
  checkTopLevelKeys(source, scope, dialect, issues, warnings);
  const presetName = data['preset'];
  checkPresetAndPlugins(source, scope, issues);
  const sandbox = readSandbox(data['sandbox'], file, topLine(source, 'sandbox'), issues);
  const read = validateHooks(source, scope, dialect, issues, warnings);
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (tolerant) tolerated.push(...issues.splice(0));
  return {
    file,
    ...(typeof presetName === 'string' ? { preset: presetName } : {}),
    plugins: source.plugins,
    ...(sandbox === undefined ? {} : { sandbox }),
    entries: read.entries,
    ...(read.disablesAllHooks ? { disablesAllHooks: true } : {}),
    issues,
    ...(tolerated.length === 0 ? {} : { tolerated }),
    warnings,
  };
}

/** The line of a top-level key, else the first. */
function topLine(source: ConfigSource, key: string): number {
  return source.lines.topLevel(key) ?? 1;
}

/** An unknown top-level key is warned about, unless it looks like a typo of a known one: an issue. */
function checkTopLevelKeys(
  source: ConfigSource,
  scope: LayerScope,
  dialect: ConfigDialect,
  issues: ConfigIssue[],
  warnings: string[],
): void {
  const { file } = source;
  for (const key of Object.keys(source.data)) {
    if (TOP_LEVEL_KEYS.includes(key) || scope.settingsTables.includes(key) || dialect.ignoresOtherTopLevelKeys === true)
      continue;
    const near = nearestWord(key, TOP_LEVEL_KEYS) ?? (key.toLowerCase() === 'hook' ? 'hooks' : undefined);
    if (near !== undefined) {
      issues.push({
        file,
        line: topLine(source, key),
        message: `unknown top-level key \`${key}\``,
        fix: `did you mean \`${near}\`?${near === 'hooks' ? ' Hooks are written as [[hooks]] tables.' : ''}`,
      });
    } else {
      warnings.push(
        `${file}:${topLine(source, key)}: ignoring unknown top-level key \`${key}\` (Hookline reads only ${TOP_LEVEL_KEYS.join(', ')})`,
      );
    }
  }
}

/** `preset` names a known preset, and `plugins` is a list of package names. */
function checkPresetAndPlugins(source: ConfigSource, scope: LayerScope, issues: ConfigIssue[]): void {
  const { file, data } = source;
  const presetName = data['preset'];
  if (!v.is(presetKey(scope.presets.names, scope.presets.fallback.name), presetName)) {
    const names = scope.presets.names;
    const near = typeof presetName === 'string' ? nearestWord(presetName, names) : undefined;
    issues.push({
      file,
      line: topLine(source, 'preset'),
      message: `unknown preset ${JSON.stringify(presetName)}`,
      fix: `${near === undefined ? '' : `did you mean "${near}"? `}known presets: ${names.join(', ')}`,
    });
  }
  if (!v.is(PLUGINS, data['plugins'])) {
    issues.push({
      file,
      line: topLine(source, 'plugins'),
      message: '`plugins` must be a list of package names',
      fix: 'write plugins = ["hookline-runner-example"]',
    });
  }
}

/** The source's hooks as the preset's dialect reads them, each validated, and no two with one name. */
function validateHooks(
  source: ConfigSource,
  scope: LayerScope,
  dialect: ConfigDialect,
  issues: ConfigIssue[],
  warnings: string[],
): { readonly entries: LayerEntry[]; readonly disablesAllHooks: boolean } {
  const { preset, runners, schemas } = scope;
  const { file, data, lines } = source;
  const entries: LayerEntry[] = [];
  const named: NamedHook[] = [];
  // The preset's dialect rewrites its form into canonical hook tables; validation is the same for all.
  const read = readDialect(dialect, { file, data, lines }, preset, schemas);
  issues.push(...read.issues);
  for (const [index, hook] of read.hooks.entries()) {
    const result = validateHook(hook.table, {
      file,
      index,
      source: hook,
      preset,
      presets: scope.presets,
      runners,
      schemas,
    });
    issues.push(...result.issues);
    for (const warning of hook.warnings ?? []) warnings.push(`${file}:${hook.line}: ${warning}`);
    if (result.entry !== undefined) entries.push(result.entry);
    if (result.name !== undefined)
      named.push({
        name: result.name,
        index,
        line: hook.line,
        ...(hook.path === undefined ? {} : { path: hook.path }),
      });
  }
  issues.push(...duplicateNames(file, named));
  return { entries, disablesAllHooks: read.disablesAllHooks === true };
}

function readSandbox(value: unknown, file: string, line: number, issues: ConfigIssue[]): ConfigLayer['sandbox'] {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({
      file,
      line,
      message: '`sandbox` must be a table',
      fix: 'write [sandbox] with provider = "local" or "docker"',
    });
    return undefined;
  }
  const { provider, ...settings } = value as Record<string, unknown>;
  if (!v.is(SANDBOX_PROVIDER, provider)) {
    issues.push({
      file,
      line,
      message: '`sandbox.provider` must be a provider name',
      fix: 'set provider = "local" (default) or "docker"',
    });
    return { settings };
  }
  return { ...(provider === undefined ? {} : { provider }), settings };
}

/** A hook of the file that has an effective name, valid or not. */
interface NamedHook {
  readonly name: string;
  readonly index: number;
  readonly line: number;
  readonly path?: string;
}

// Two hooks with one effective name in one file are ambiguous for layering. Hooks with other
// problems take part too, so this is reported with them, not only once they are fixed.
function duplicateNames(file: string, hooks: readonly NamedHook[]): ConfigIssue[] {
  const seen = new Map<string, NamedHook>();
  const issues: ConfigIssue[] = [];
  for (const entry of hooks) {
    const first = seen.get(entry.name);
    if (first === undefined) {
      seen.set(entry.name, entry);
      continue;
    }
    issues.push({
      file,
      line: entry.line,
      hook: { index: entry.index, name: entry.name, ...(entry.path === undefined ? {} : { path: entry.path }) },
      message: `another hook in this file (${first.path ?? `hooks[${first.index}]`}, line ${first.line}) has the same effective name "${entry.name}"`,
      fix: 'give the two hooks distinct `name`s',
    });
  }
  return issues;
}
