import * as v from 'valibot';
import { canonicalDialect } from '../config/canonical-dialect.ts';
import type { ConfigIssue } from '../config/config-issue.ts';
import type { ConfigDialect, DialectHook } from '../config/config-dialect.ts';
import { SHORTHAND_TYPE } from '../config/hook-schemas.ts';
import { nearestWord } from '../config/nearest-word.ts';

/** The effective name of a point's `position`-th command (0-based): `after_merge-01`, `after_merge-02`, … */
export function taskHookName(point: string, position: number): string {
  return `${point}-${String(position + 1).padStart(2, '0')}`;
}

/**
 * The `task` preset's form (SPEC §12, source 001): a `[hooks]` table whose keys are points and whose
 * values are lists of shell command lines. Each command becomes the command hook
 * `{ name = "{point}-{NN}", event = point, command }`; everything else (non-blocking, sequential,
 * durable) comes from the catalog. `[[hooks]]` tables are read as the canonical form.
 */
export const taskDialect: ConfigDialect = {
  readHooks(source, preset) {
    const { file, data, lines } = source;
    const table = data['hooks'];
    if (table === undefined || Array.isArray(table)) return canonicalDialect.readHooks(source, preset);
    const tableLine = lines.topLevel('hooks') ?? 1;
    if (typeof table !== 'object' || table === null) {
      return {
        hooks: [],
        issues: [{ file, line: tableLine, message: '`hooks` must be a [hooks] table of command lists', fix: 'write [hooks] and then after_merge = ["./cleanup.sh", …]' }],
      };
    }
    const points = preset.events.map((event) => event.name);
    const hooks: DialectHook[] = [];
    const issues: ConfigIssue[] = [];
    for (const [point, commands] of Object.entries(table as Record<string, unknown>)) {
      const pointLine = lines.tableKey('hooks', point) ?? tableLine;
      if (!points.includes(point)) {
        const near = nearestWord(point, points);
        issues.push({
          file,
          line: pointLine,
          message: `unknown point \`hooks.${point}\` for preset "${preset.name}"`,
          fix: `${near === undefined ? '' : `did you mean \`${near}\`? `}points: ${points.join(', ')}`,
        });
        continue;
      }
      if (!Array.isArray(commands)) {
        issues.push({
          file,
          line: pointLine,
          message: `\`hooks.${point}\` must be a list of shell command lines`,
          fix: `write ${point} = ["./notify.sh", …] (an empty list [] runs nothing)`,
        });
        continue;
      }
      for (const [position, command] of commands.entries()) {
        const line = lines.tableArrayItem('hooks', point, position) ?? pointLine;
        hooks.push({
          table: { name: taskHookName(point, position), event: point, command },
          line,
          keyLine: () => line,
          path: `hooks.${point}[${position}]`,
          group: `hooks.${point}`,
        });
      }
    }
    return { hooks, issues };
  },
  hooksSchema(schemas) {
    // Each line is a command hook's `command`, so the list holds what that key's schema allows.
    const line = schemas.keys(SHORTHAND_TYPE)['command'] ?? v.string();
    const lists = Object.fromEntries(
      schemas.preset.events.map(({ name: point }) => [point, v.optional(v.pipe(v.array(line), v.description(`Shell command lines run in order at ${point}.`)))]),
    );
    return v.union([v.array(schemas.hook()), v.strictObject(lists)]);
  },
};
