import type { ConfigDialect } from '../../config/config-dialect.ts';
import { claudeDialect } from '../claude/claude-dialect.ts';

/**
 * Gemini CLI's settings form: `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
 * "sequential": false, "hooks": [{"type": "command", "command": "…", "name": "…", "timeout": 60000,
 * "description": "…"}]}]}}` — Claude Code's matcher groups, with the timeout in milliseconds, a
 * `description` per hook and `sequential` per group. It is read as that form once the timeout is
 * in seconds and the two keys Hookline has no use for are set aside (a hook's `name` is Hookline's
 * `name`); every other top-level key of the settings file is ignored.
 */
export const geminiDialect: ConfigDialect = {
  ignoresOtherTopLevelKeys: true,
  hooksSchema: (preset, schemas) => claudeDialect.hooksSchema(preset, schemas),
  formValue: asClaudeForm,
  readHooks: (source, preset, schemas) =>
    claudeDialect.readHooks(
      { ...source, data: { ...source.data, hooks: asClaudeForm(source.data['hooks']) } },
      preset,
      schemas,
    ),
};

/** Gemini CLI's `hooks` object in Claude Code's form; parts that are not as expected stay as written. */
export function asClaudeForm(hooks: unknown): unknown {
  if (!isObject(hooks)) return hooks;
  return Object.fromEntries(
    Object.entries(hooks).map(([event, groups]) => [
      event,
      Array.isArray(groups)
        ? (groups as readonly unknown[]).map((group) => (isObject(group) ? asClaudeGroup(group) : group))
        : groups,
    ]),
  );
}

function asClaudeGroup(group: Record<string, unknown>): Record<string, unknown> {
  const { sequential: _sequential, hooks, ...rest } = group;
  return {
    ...rest,
    hooks: Array.isArray(hooks)
      ? (hooks as readonly unknown[]).map((hook) => (isObject(hook) ? asClaudeHook(hook) : hook))
      : hooks,
  };
}

function asClaudeHook(hook: Record<string, unknown>): Record<string, unknown> {
  const { description: _description, timeout, ...rest } = hook;
  return typeof timeout === 'number'
    ? { ...rest, timeout: timeout / 1000 }
    : timeout === undefined
      ? rest
      : { ...rest, timeout };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
