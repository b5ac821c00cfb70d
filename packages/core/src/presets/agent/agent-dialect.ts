import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { canonicalHook, hookArray, readHookArray } from '../../config/canonical-dialect.ts';
import { COMMON_HOOK_KEY_NAMES, commonHookKeys } from '../../config/common-hook-keys.ts';
import type { ConfigDialect, DialectHook } from '../../config/config-dialect.ts';
import { nearestWord } from '../../config/nearest-word.ts';
import type { SourceLines } from '../../config/source-lines.ts';
import { withRules } from '../../config/ruled-schema.ts';
import { breaksRule, ruleProblem, type KeyRule } from '../../plugins/key-rule.ts';
import type { HookKeyProblem } from '../../plugins/runner-type.ts';
import { exactMatcher } from '../../selection/exact-matcher.ts';

/** The coding agent's action types and the hook types they are. */
const ACTION_TYPES: Readonly<Record<string, string>> = { shell: 'command', http: 'http' };
const ACTION_FORMS = 'an action is type = "shell" with command = "…", or type = "http" with url = "…"';
const AGENT_FIX = 'write each hook as [[hooks]] with event = "…" and a [hooks.action] table';

/** An http action may name its method; http hooks always POST (any case, as agents' own configs write it). */
const METHOD = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^[Pp][Oo][Ss][Tt]$/),
    v.description("Always POST: the event's context is posted as JSON."),
  ),
);
/** Keys an action of a type has beyond its hook type's own. */
const ACTION_KEYS: Readonly<Record<string, Readonly<Record<string, GenericSchema>>>> = {
  shell: {},
  http: { method: METHOD },
};

/** `tool_name`: one tool, matched exactly. */
const TOOL_NAME = v.optional(
  v.pipe(v.string(), v.nonEmpty(), v.description('Run only for this tool (exact match); without it, for every tool.')),
);
/** `tool_name` becomes the hook's matcher, so it cannot come with one. */
const TOOL_NAME_ALONE: KeyRule = {
  when: { tool_name: v.string() },
  then: { matcher: v.optional(v.never()) },
  key: 'matcher',
  message: '`tool_name` and `matcher` cannot be used together',
  fix: 'keep tool_name for one tool (exact match), or matcher for a regular expression',
};

/**
 * The `agent` preset's form: `[[hooks]]` with `event`, an optional `tool_name`
 * and an action — `[hooks.action]` or inline `action = { … }` — of `type = "shell"` (a command hook)
 * or `type = "http"` (an HTTP hook). `tool_name` becomes an exact matcher (`^Bash$`). The action's
 * other keys are the hook type's own (`command`, `url`, `headers`, …); Hookline's common keys
 * (`name`, `timeout_ms`, `on_error`, …) may be added to the `[[hooks]]` table. Tables without an
 * action are read as the canonical form. The declarations above are read by both sides.
 */
export const agentDialect: ConfigDialect = {
  hooksSchema(_preset, schemas) {
    if (schemas === undefined) return hookArray(v.unknown(), AGENT_FIX);
    const actions: GenericSchema[] = [];
    for (const [action, hookType] of Object.entries(ACTION_TYPES)) {
      const declared = schemas.types[hookType];
      if (declared !== undefined)
        actions.push(
          withRules(
            v.strictObject({ type: v.literal(action), ...ACTION_KEYS[action], ...declared.options.entries }),
            declared.rules ?? [],
          ),
        );
    }
    const canonical = schemas.hook({ keys: { tool_name: TOOL_NAME }, rules: [TOOL_NAME_ALONE] });
    if (actions.length === 0) return hookArray(canonical, AGENT_FIX);
    const { type: _type, ...common } = commonHookKeys;
    const action = v.pipe(
      actions.length === 1 ? actions[0]! : v.union(actions),
      v.description('What the hook does: a shell command or an HTTP POST.'),
    );
    const withAction = withRules(v.strictObject({ ...common, event: schemas.event, tool_name: TOOL_NAME, action }), [
      ...schemas.hookRules,
      TOOL_NAME_ALONE,
    ]);
    return hookArray(v.union([withAction, canonical]), AGENT_FIX);
  },
  readHooks: (source) => ({
    hooks: readHookArray(source, (raw, index) => agentHook(raw, index, source.lines)),
    issues: [],
  }),
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
    const written = { tool_name: tool, matcher: table['matcher'] };
    if (typeof tool !== 'string' || !v.is(TOOL_NAME, tool)) {
      problems.push({
        key: 'tool_name',
        message: '`tool_name` must be a non-empty string naming one tool',
        fix: 'write tool_name = "Bash" (exact match), or leave it out to run for every tool',
      });
    } else if (breaksRule(TOOL_NAME_ALONE, written)) {
      problems.push(ruleProblem(TOOL_NAME_ALONE, written));
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
    problems.push({
      key: 'action',
      message: 'the hook has no action',
      fix: `add a [hooks.action] table: ${ACTION_FORMS}`,
    });
  }
  return {
    table,
    line: base.line,
    // Keys of an inline `action = { … }`, and type keys the action lacks, point at the action.
    keyLine: (key) =>
      lines.findHookKey(index, key) ??
      (actionLine !== undefined && (fromAction.has(key) || !COMMON_HOOK_KEY_NAMES.includes(key))
        ? actionLine
        : base.keyLine(key)),
    problems,
    ...(nameQualifier === undefined ? {} : { nameQualifier }),
  };
}

/** Moves the action's keys onto the hook table, mapping its `type` and checking `method`. */
function liftAction(action: unknown, table: Record<string, unknown>, problems: HookKeyProblem[]): void {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) {
    problems.push({
      key: 'action',
      message: '`action` must be a table',
      fix: `write [hooks.action] or action = { type = "shell", command = "…" }: ${ACTION_FORMS}`,
    });
    return;
  }
  const { type, method, ...keys } = action as Record<string, unknown>;
  if (table['type'] !== undefined) {
    problems.push({
      key: 'type',
      message: '`type` is set on the hook and it also has an action',
      fix: 'remove `type` from the [[hooks]] table and keep the action',
    });
  }
  if (type === undefined) {
    problems.push({
      key: 'action',
      message: 'the action has no `type`',
      fix: `add type = "shell" or type = "http": ${ACTION_FORMS}`,
    });
  } else if (typeof type !== 'string' || ACTION_TYPES[type] === undefined) {
    const near = typeof type === 'string' ? nearestWord(type, Object.keys(ACTION_TYPES)) : undefined;
    problems.push({
      key: 'type',
      message: `unknown action type ${JSON.stringify(type)}`,
      fix: `${near === undefined ? '' : `did you mean "${near}"? `}${ACTION_FORMS}`,
    });
  } else {
    table['type'] = ACTION_TYPES[type];
  }
  checkMethod(type, method, problems);
  liftKeys(keys, table, problems);
}

/** `method` is for http actions, and only POST. */
function checkMethod(type: unknown, method: unknown, problems: HookKeyProblem[]): void {
  if (method === undefined) return;
  if (typeof type !== 'string' || ACTION_KEYS[type]?.['method'] === undefined) {
    problems.push({
      key: 'method',
      message: '`method` belongs to http actions',
      fix: 'remove `method`, or set type = "http"',
    });
  } else if (!v.is(METHOD, method)) {
    problems.push({
      key: 'method',
      message: `method = ${JSON.stringify(method)} is not supported: http hooks always POST the event's context as JSON`,
      fix: 'remove `method`, or set method = "POST"',
    });
  }
}

/** The action's other keys move onto the hook table, unless they belong to the hook or are set there too. */
function liftKeys(keys: Record<string, unknown>, table: Record<string, unknown>, problems: HookKeyProblem[]): void {
  for (const [key, value] of Object.entries(keys)) {
    if (COMMON_HOOK_KEY_NAMES.includes(key)) {
      problems.push({
        key,
        message: `\`${key}\` belongs to the [[hooks]] table, not to its action`,
        fix: `move ${key} = … above [hooks.action]`,
      });
    } else if (table[key] !== undefined) {
      problems.push({
        key,
        message: `\`${key}\` is set both on the hook and in its action`,
        fix: 'keep it in the action only',
      });
    } else {
      table[key] = value;
    }
  }
}
