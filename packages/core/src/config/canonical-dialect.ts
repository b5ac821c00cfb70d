import * as v from 'valibot';
import type { ConfigDialect, DialectHook, DialectResult, DialectSource } from './config-dialect.ts';
import type { SourceLines } from './source-lines.ts';

/** A `[[hooks]]` table as written, located by its position among the file's hooks. */
export function canonicalHook(table: unknown, index: number, lines: SourceLines): DialectHook {
  return { table, line: lines.hook(index) ?? 1, keyLine: (key) => lines.hookKey(index, key) };
}

/**
 * Reads `hooks` written as an array of tables (the canonical form, and `agent`'s), each through
 * `readHook`; anything else is one issue, with `fix` saying how this dialect writes a hook.
 */
export function readHookArray(source: DialectSource, fix: string, readHook: (table: unknown, index: number) => DialectHook): DialectResult {
  const { file, data, lines } = source;
  const hooks = data['hooks'];
  if (hooks === undefined) return { hooks: [], issues: [] };
  if (!Array.isArray(hooks)) return { hooks: [], issues: [{ file, line: lines.topLevel('hooks') ?? 1, message: '`hooks` must be an array of tables', fix }] };
  return { hooks: hooks.map(readHook), issues: [] };
}

/** SPEC §2's form, the `arc` preset's: every hook is a `[[hooks]]` table of canonical keys. */
export const canonicalDialect: ConfigDialect = {
  readHooks: (source) =>
    readHookArray(
      source,
      'write each hook as a [[hooks]] table (a [hooks] table of command lists is the "task" preset\'s form: set preset = "task")',
      (table, index) => canonicalHook(table, index, source.lines),
    ),
  hooksSchema: (schemas) => v.array(schemas.hook()),
};
