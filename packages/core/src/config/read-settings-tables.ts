import * as v from 'valibot';
import { settingsEntries } from '../plugins/settings-entries.ts';
import { settingKey } from '../plugins/settings-issues.ts';
import type { SettingsTable } from '../plugins/settings-table.ts';
import type { ConfigIssue } from './config-issue.ts';
import { nearestWord } from './nearest-word.ts';
import type { ConfigSource } from './read-config-source.ts';

/** The declared settings tables of a configuration, validated: each one's output, and the problems. */
export interface SettingsReading {
  /** Each table's schema output by its path, for the tables some source writes. */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly issues: readonly ConfigIssue[];
  /** Deprecated key names that were accepted, as `file:line: …`. */
  readonly warnings: readonly string[];
}

/**
 * Validates the settings tables plugins declare (`[models]`, `[sandbox.docker]`) in every source:
 * unknown keys with the nearest known one, former key names with a warning, the schema's own issues
 * at the line of their key. Sources layer key by key, later over earlier; the merged table is what
 * the schema's output is made from.
 */
export function readSettingsTables(
  sources: readonly ConfigSource[],
  tables: readonly SettingsTable[],
): SettingsReading {
  const settings: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  for (const table of uniqueTables(tables)) {
    const parts = table.path.split('.');
    const merged: Record<string, unknown> = {};
    let last: { source: ConfigSource; line: number } | undefined;
    let valid = true;
    for (const source of sources) {
      const value = valueAt(source.data, parts);
      if (value === undefined) continue;
      const read = readTable(table, parts, source, value);
      issues.push(...read.issues);
      warnings.push(...read.warnings);
      last = { source, line: read.line };
      if (read.issues.length > 0) valid = false;
      else Object.assign(merged, read.written);
    }
    if (last === undefined || !valid) continue;
    const parsed = v.safeParse(table.schema, merged);
    if (parsed.success) settings[table.path] = parsed.output;
    // Each layer passed alone; only a rule across layers' keys can fail here.
    else
      issues.push(
        ...parsed.issues.map((issue) => ({
          file: last.source.file,
          line: last.line,
          message: `[${table.path}]${pathOf(issue)} ${issue.message}`,
        })),
      );
  }
  return { settings, issues, warnings };
}

/** One source's table, checked: its keys under their current names, and what is wrong with them. */
function readTable(
  table: SettingsTable,
  parts: readonly string[],
  source: ConfigSource,
  value: unknown,
): { written: Record<string, unknown>; line: number; issues: ConfigIssue[]; warnings: string[] } {
  const { file, lines } = source;
  const line =
    lines.at(parts) ?? lines.tableKey(parts.slice(0, -1).join('.'), parts.at(-1)!) ?? lines.topLevel(parts[0]!) ?? 1;
  const keyLine = (key: string): number => lines.at([...parts, key]) ?? lines.tableKey(table.path, key) ?? line;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      written: {},
      line,
      issues: [
        {
          file,
          line,
          message: `\`${table.path}\` must be a table`,
          fix: `write it as [${table.path}] with its settings below`,
        },
      ],
      warnings: [],
    };
  }
  const { written, writtenAs, issues, warnings } = currentKeys(table, value, file, keyLine);
  const parsed = v.safeParse(table.schema, written);
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const key = issue.path?.[0]?.key;
      const at = typeof key === 'string' ? keyLine(writtenAs.get(key) ?? key) : line;
      issues.push({
        file,
        line: at,
        message: `[${table.path}]${pathOf(issue)} ${issue.message}`,
        fix: typeof key === 'string' ? `fix the value of \`${key}\`` : `fix the entries of [${table.path}]`,
      });
    }
  }
  return { written, line, issues, warnings };
}

/**
 * The table's settings under their current names (a renamed key warns; a key set under both names,
 * or one the table does not know, is an issue), and where each was written.
 */
function currentKeys(
  table: SettingsTable,
  value: object,
  file: string,
  keyLine: (key: string) => number,
): { written: Record<string, unknown>; writtenAs: Map<string, string>; issues: ConfigIssue[]; warnings: string[] } {
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const entries = settingsEntries(table.schema);
  const renamed = table.renamedKeys ?? {};
  const written: Record<string, unknown> = {};
  // Where each current key was written, so an issue about it points at the spelling the user wrote.
  const writtenAs = new Map<string, string>();
  for (const [key, setting] of Object.entries(value)) {
    const current = Object.hasOwn(renamed, key) ? renamed[key]! : key;
    if (current !== key) {
      if (Object.hasOwn(value, current)) {
        issues.push({
          file,
          line: keyLine(key),
          message: `[${table.path}] sets both \`${key}\` and \`${current}\``,
          fix: `remove \`${key}\`, the former name of \`${current}\``,
        });
        continue;
      }
      warnings.push(
        `${file}:${keyLine(key)}: [${table.path}] \`${key}\` is deprecated; write \`${current}\` (snake_case, as hook keys are)`,
      );
    } else if (entries !== undefined && !Object.hasOwn(entries, key)) {
      const known = Object.keys(entries);
      const near = nearestWord(key, [...known, ...Object.keys(renamed)]);
      const suggestion = near === undefined ? undefined : (renamed[near] ?? near);
      issues.push({
        file,
        line: keyLine(key),
        message: `unknown setting \`${key}\` in [${table.path}]`,
        fix:
          suggestion === undefined
            ? `remove it (the settings are ${known.join(', ')})`
            : `did you mean \`${suggestion}\`?`,
      });
      continue;
    }
    written[current] = setting;
    writtenAs.set(current, key);
  }
  return { written, writtenAs, issues, warnings };
}

function pathOf(issue: v.BaseIssue<unknown>): string {
  const key = settingKey(issue);
  return key === '' ? '' : ` \`${key}\``;
}

function valueAt(data: Readonly<Record<string, unknown>>, parts: readonly string[]): unknown {
  let value: unknown = data;
  for (const part of parts) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

// Two plugins may hand in one declaration (a package loaded for a runner and for a sandbox).
function uniqueTables(tables: readonly SettingsTable[]): SettingsTable[] {
  const byPath = new Map<string, SettingsTable>();
  for (const table of tables) if (!byPath.has(table.path)) byPath.set(table.path, table);
  return [...byPath.values()];
}
