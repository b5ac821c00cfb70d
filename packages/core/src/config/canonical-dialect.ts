import * as v from 'valibot';
import type { ConfigDialect, DialectHook } from './config-dialect.ts';
import type { SourceLines } from './source-lines.ts';

/** A `[[hooks]]` table as written, located by its position among the file's hooks. */
export function canonicalHook(table: unknown, index: number, lines: SourceLines): DialectHook {
  return { table, line: lines.hook(index) ?? 1, keyLine: (key) => lines.hookKey(index, key) };
}

/** SPEC §2's form, the `arc` preset's: every hook is a `[[hooks]]` table of canonical keys. */
export const canonicalDialect: ConfigDialect = {
  readHooks({ file, data, lines }) {
    const hooks = data['hooks'];
    if (hooks === undefined) return { hooks: [], issues: [] };
    if (!Array.isArray(hooks)) {
      return {
        hooks: [],
        issues: [
          {
            file,
            line: lines.topLevel('hooks') ?? 1,
            message: '`hooks` must be an array of tables',
            fix: 'write each hook as a [[hooks]] table (a [hooks] table of command lists is the "task" preset\'s form: set preset = "task")',
          },
        ],
      };
    }
    return { hooks: hooks.map((table, index) => canonicalHook(table, index, lines)), issues: [] };
  },
  hooksSchema: ({ hook }) => v.array(hook),
};
