import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { ConfigDialect, DialectHook, DialectSource } from './config-dialect.ts';
import { worded } from './form-wording.ts';
import type { SourceLines } from './source-lines.ts';

/** A `[[hooks]]` table as written, located by its position among the file's hooks. */
export function canonicalHook(table: unknown, index: number, lines: SourceLines): DialectHook {
  return { table, line: lines.hook(index) ?? 1, keyLine: (key) => lines.hookKey(index, key) };
}

/** `hooks` as an array of tables (the canonical form, and `agent`'s); `fix` says how this dialect writes a hook. */
export function hookArray(hook: GenericSchema, fix: string): GenericSchema {
  return worded(v.array(hook), { wrongType: () => ({ message: '`hooks` must be an array of tables', fix }) });
}

/** Each table of a `hooks` array, through `readHook`; nothing when `hooks` is not an array (the form says so). */
export function readHookArray(
  source: DialectSource,
  readHook: (table: unknown, index: number) => DialectHook,
): DialectHook[] {
  const hooks = source.data['hooks'];
  return Array.isArray(hooks) ? hooks.map(readHook) : [];
}

// Another form of `hooks` is another preset's dialect: suggestPreset names that preset when it can.
const CANONICAL_FIX =
  'write each hook as a [[hooks]] table, or set preset = "…" to the preset whose form of hooks this is';

/** The canonical form, the `arc` preset's: every hook is a `[[hooks]]` table of canonical keys. */
export const canonicalDialect: ConfigDialect = {
  hooksSchema: (_preset, schemas) => hookArray(schemas?.hook() ?? v.unknown(), CANONICAL_FIX),
  readHooks: (source) => ({
    hooks: readHookArray(source, (table, index) => canonicalHook(table, index, source.lines)),
    issues: [],
  }),
};
