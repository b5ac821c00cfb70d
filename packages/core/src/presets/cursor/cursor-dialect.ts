import type { ConfigDialect } from '../../config/config-dialect.ts';
import { claudeFormDialect } from '../claude-form-dialect.ts';

/**
 * Cursor's `hooks.json` form (its published hooks reference): `{"version": 1, "hooks":
 * {"beforeShellExecution": [{"command": "./guard.sh", "timeout": 30, "matcher": "…"}]}}` — a flat
 * list of hooks per event, timeouts in seconds, `failClosed: true` for a hook whose failure must
 * block. Each entry is read as a matcher group of one hook in Claude Code's form (`failClosed`
 * becomes `on_error = "block"`); `version` and other top-level keys are ignored.
 */
export const cursorDialect: ConfigDialect = claudeFormDialect(asClaudeGroup);

function asClaudeGroup(entry: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { matcher, failClosed, ...hook } = entry;
  const closed = failClosed === true && hook['on_error'] === undefined ? { on_error: 'block' } : {};
  return {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', ...hook, ...closed }],
  };
}
