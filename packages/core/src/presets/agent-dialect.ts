import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { canonicalHook } from '../config/canonical-dialect.ts';
import { COMMON_HOOK_KEY_NAMES, commonHookKeys } from '../config/common-hook-keys.ts';
import type { ConfigDialect, DialectHook } from '../config/config-dialect.ts';
import { nearestWord } from '../config/nearest-word.ts';
import type { SourceLines } from '../config/source-lines.ts';
import type { HookKeyProblem } from '../plugins/runner-type.ts';
import { exactMatcher } from '../selection/exact-matcher.ts';

/** Source 002's action types and the hook types they are. */
const ACTION_TYPES: Readonly<Record<string, string>> = { shell: 'command', http: 'http' };
const ACTION_FORMS = 'an action is type = "shell" with command = "…", or type = "http" with url = "…"';

/**
 * The `agent` preset's form (SPEC §12, source 002): `[[hooks]]` with `event`, an optional `tool_name`
 * and an action — `[hooks.action]` or inline `action = { … }` — of `type = "shell"` (a command hook)
 * or `type = "http"` (an HTTP hook). `tool_name` becomes an exact matcher (`^Bash$`). The action's
 * other keys are the hook type's own (`command`, `url`, `headers`, …); Hookline's common keys
 * (`name`, `timeout_ms`, `on_error`, …) may be added to the `[[hooks]]` table. Tables without an
 * action are read as the canonical form.
 */
export const agentDialect: ConfigDialect = {
  readHooks({ file, data, lines }) {
    const hooks = data['hooks'];
    if (hooks === undefined) return { hooks: [], issues: [] };
    if (!Array.isArray(hooks)) {
      return {
        hooks: [],
        issues: [{ file, line: lines.topLevel('hooks') ?? 1, message: '`hooks` must be an array of tables', fix: 'write each hook as [[hooks]] with event = "…" and a [hooks.action] table' }],
      };
    }
    return { hooks: hooks.map((raw, index) => agentHook(raw, index, lines)), issues: [] };
  },
  hooksSchema({ hookWith, withRules, event, types }) {
    const toolName = v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Run only for this tool (exact match); without it, for every tool.')));
    const actions: GenericSchema[] = [];
    if (types['command'] !== undefined) actions.push(withRules(v.strictObject({ type: v.literal('shell'), ...types['command'].options.entries }), types['command']));
    if (types['http'] !== undefined) actions.push(withRules(v.strictObject({ type: v.literal('http'), method: v.optional(v.literal('POST')), ...types['http'].options.entries }), types['http']));
    const canonical = hookWith({ tool_name: toolName });
    if (actions.length === 0) return v.array(canonical);
    const { type: _type, ...common } = commonHookKeys;
    const action = v.pipe(actions.length === 1 ? actions[0]! : v.union(actions), v.description('What the hook does: a shell command or an HTTP POST.'));
    return v.array(v.union([v.strictObject({ ...common, event, tool_name: toolName, action }), canonical]));
  },
};

function agentHook(raw: unknown, index: number, lines: SourceLines): DialectHook {
  const base = canonicalHook(raw, index, lines);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return base;
  const table: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const problems: HookKeyProblem[] = [];
  let nameQualifier: string | undefined;

  if (table['tool_name'] !== undefined) {
    const tool = table['tool_name'];
    delete table['tool_name'];
    if (typeof tool !== 'string' || tool === '') {
      problems.push({ key: 'tool_name', message: '`tool_name` must be a non-empty string naming one tool', fix: 'write tool_name = "Bash" (exact match), or leave it out to run for every tool' });
    } else if (table['matcher'] !== undefined) {
      problems.push({ key: 'matcher', message: '`tool_name` and `matcher` cannot be used together', fix: 'keep tool_name for one tool (exact match), or matcher for a regular expression' });
    } else {
      table['matcher'] = exactMatcher(tool);
      nameQualifier = tool;
    }
  }

  const actionLine = lines.findHookKey(index, 'action');
  const fromAction = new Set<string>();
  if (table['action'] !== undefined) {
    const action = table['action'];
    delete table['action'];
    if (typeof action === 'object' && action !== null) for (const key of Object.keys(action)) fromAction.add(key);
    liftAction(action, table, problems);
  } else if (table['type'] === undefined && table['command'] === undefined) {
    problems.push({ key: 'action', message: 'the hook has no action', fix: `add a [hooks.action] table: ${ACTION_FORMS}` });
  }
  return {
    table,
    line: base.line,
    // Keys of an inline `action = { … }`, and type keys the action lacks, point at the action.
    keyLine: (key) => lines.findHookKey(index, key) ?? (actionLine !== undefined && (fromAction.has(key) || !COMMON_HOOK_KEY_NAMES.includes(key)) ? actionLine : base.keyLine(key)),
    problems,
    ...(nameQualifier === undefined ? {} : { nameQualifier }),
  };
}

/** Moves the action's keys onto the hook table, mapping its `type` and checking `method`. */
function liftAction(action: unknown, table: Record<string, unknown>, problems: HookKeyProblem[]): void {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) {
    problems.push({ key: 'action', message: '`action` must be a table', fix: `write [hooks.action] or action = { type = "shell", command = "…" }: ${ACTION_FORMS}` });
    return;
  }
  const { type, method, ...keys } = action as Record<string, unknown>;
  if (table['type'] !== undefined) {
    problems.push({ key: 'type', message: '`type` is set on the hook and it also has an action', fix: 'remove `type` from the [[hooks]] table and keep the action' });
  }
  if (type === undefined) {
    problems.push({ key: 'action', message: 'the action has no `type`', fix: `add type = "shell" or type = "http": ${ACTION_FORMS}` });
  } else if (typeof type !== 'string' || ACTION_TYPES[type] === undefined) {
    const near = typeof type === 'string' ? nearestWord(type, Object.keys(ACTION_TYPES)) : undefined;
    problems.push({ key: 'type', message: `unknown action type ${JSON.stringify(type)}`, fix: `${near === undefined ? '' : `did you mean "${near}"? `}${ACTION_FORMS}` });
  } else {
    table['type'] = ACTION_TYPES[type];
  }
  if (method !== undefined) {
    if (type !== 'http') {
      problems.push({ key: 'method', message: '`method` belongs to http actions', fix: 'remove `method`, or set type = "http"' });
    } else if (typeof method !== 'string' || method.toUpperCase() !== 'POST') {
      problems.push({
        key: 'method',
        message: `method = ${JSON.stringify(method)} is not supported: http hooks always POST the event's context as JSON`,
        fix: 'remove `method`, or set method = "POST"',
      });
    }
  }
  for (const [key, value] of Object.entries(keys)) {
    if (COMMON_HOOK_KEY_NAMES.includes(key)) {
      problems.push({ key, message: `\`${key}\` belongs to the [[hooks]] table, not to its action`, fix: `move ${key} = … above [hooks.action]` });
    } else if (table[key] !== undefined) {
      problems.push({ key, message: `\`${key}\` is set both on the hook and in its action`, fix: 'keep it in the action only' });
    } else {
      table[key] = value;
    }
  }
}
