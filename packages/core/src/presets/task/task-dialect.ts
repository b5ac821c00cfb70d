import * as v from 'valibot';
import { canonicalDialect, hookArray } from '../../config/canonical-dialect.ts';
import type { ConfigDialect, DialectHook } from '../../config/config-dialect.ts';
import { worded } from '../../config/form-wording.ts';
import { SHORTHAND_TYPE } from '../../config/hook-schemas.ts';
import { nearestWord } from '../../config/nearest-word.ts';

/** The effective name of a point's `position`-th command (0-based): `after_merge-01`, `after_merge-02`, … */
export function taskHookName(point: string, position: number): string {
  return `${point}-${String(position + 1).padStart(2, '0')}`;
}

/**
 * The `task` preset's form: a `[hooks]` table whose keys are points and whose
 * values are lists of shell command lines. Each command becomes the command hook
 * `{ name = "{point}-{NN}", event = point, command }`; everything else (non-blocking, sequential,
 * durable) comes from the catalog. `[[hooks]]` tables are read as the canonical form.
 */
export const taskDialect: ConfigDialect = {
  hooksSchema(preset, schemas) {
    // Each line is a command hook's `command`, so the list holds what that key's schema allows.
    const line = schemas?.keys(SHORTHAND_TYPE)['command'] ?? v.unknown();
    const list = (point: string) =>
      worded(v.pipe(v.array(line), v.description(`Shell command lines run in order at ${point}.`)), {
        wrongType: (where) => ({
          message: `\`${where}\` must be a list of shell command lines`,
          fix: `write ${point} = ["./notify.sh", …] (an empty list [] runs nothing)`,
        }),
      });
    const points = preset.events.map((event) => event.name);
    const lists = worded(v.strictObject(Object.fromEntries(points.map((point) => [point, v.optional(list(point))]))), {
      unknownKey: (point) => {
        const near = nearestWord(point, points);
        return {
          message: `unknown point \`hooks.${point}\` for preset "${preset.name}"`,
          fix: `${near === undefined ? '' : `did you mean \`${near}\`? `}points: ${points.join(', ')}`,
        };
      },
    });
    const tables = hookArray(
      schemas?.hook() ?? v.unknown(),
      'write each hook as a [[hooks]] table, or the commands of each point as a [hooks] list',
    );
    return worded(v.union([tables, lists]), {
      wrongType: () => ({
        message: '`hooks` must be a [hooks] table of command lists',
        fix: 'write [hooks] and then after_merge = ["./cleanup.sh", …]',
      }),
    });
  },
  formLine: (path, lines) =>
    path.length === 0
      ? undefined
      : path.length === 1
        ? lines.tableKey('hooks', String(path[0]))
        : lines.tableArrayItem('hooks', String(path[0]), Number(path[1])),
  readHooks(source, preset) {
    const { data, lines } = source;
    const table = data['hooks'];
    if (table === undefined || Array.isArray(table)) return canonicalDialect.readHooks(source, preset);
    if (typeof table !== 'object' || table === null) return { hooks: [], issues: [] };
    const hooks: DialectHook[] = [];
    const tableLine = lines.topLevel('hooks') ?? 1;
    for (const [point, commands] of Object.entries(table as Record<string, unknown>)) {
      // A point the catalog lacks, or a value that is no list: the form has said so.
      if (!preset.events.some((event) => event.name === point) || !Array.isArray(commands)) continue;
      const pointLine = lines.tableKey('hooks', point) ?? tableLine;
      for (const [position, command] of (commands as unknown[]).entries()) {
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
    return { hooks, issues: [] };
  },
};
