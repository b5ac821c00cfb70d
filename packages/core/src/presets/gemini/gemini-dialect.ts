import type { ConfigDialect } from '../../config/config-dialect.ts';
import { isObject } from '../canonical-call.ts';
import { claudeFormDialect } from '../claude-form-dialect.ts';

/**
 * Gemini CLI's settings form: `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
 * "sequential": false, "hooks": [{"type": "command", "command": "…", "name": "…", "timeout": 60000,
 * "description": "…"}]}]}}` — Claude Code's matcher groups, with the timeout in milliseconds, a
 * `description` per hook and `sequential` per group. It is read as that form once the timeout is
 * in seconds and the two keys Hookline has no use for are set aside (a hook's `name` is Hookline's
 * `name`); every other top-level key of the settings file is ignored.
 */
export const geminiDialect: ConfigDialect = claudeFormDialect(asClaudeGroup);

function asClaudeGroup(group: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { sequential: _sequential, hooks, ...rest } = group;
  return {
    ...rest,
    hooks: Array.isArray(hooks)
      ? (hooks as readonly unknown[]).map((hook) => (isObject(hook) ? asClaudeHook(hook) : hook))
      : hooks,
  };
}

function asClaudeHook(hook: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { description: _description, timeout, ...rest } = hook;
  return typeof timeout === 'number'
    ? { ...rest, timeout: timeout / 1000 }
    : timeout === undefined
      ? rest
      : { ...rest, timeout };
}
