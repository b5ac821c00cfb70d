import type { ConfigDialect } from '../../config/config-dialect.ts';
import { claudeFormDialect } from '../claude-form-dialect.ts';

/**
 * GitHub Copilot CLI's hooks file form (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`): `{"version":
 * 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./guard.sh", "timeoutSec": 30}]}}` — a flat
 * list of hooks per camelCase event, `bash` (or its cross-platform alias `command`) the command line,
 * `timeoutSec` (or `timeout`) in seconds, an optional `matcher` on the tool name. Each entry is read as
 * a matcher group of one hook in Claude Code's form; an entry already in that nested form (which
 * Copilot also accepts) stays as written. `powershell` is Windows' line, which Hookline does not run.
 */
export const copilotDialect: ConfigDialect = claudeFormDialect((entry) =>
  Array.isArray(entry['hooks']) ? entry : asClaudeGroup(entry),
);

function asClaudeGroup(entry: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { matcher, bash, command, powershell: _windows, timeoutSec, timeout, type, ...rest } = entry;
  const seconds = timeoutSec ?? timeout;
  return {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [
      {
        type: type ?? 'command',
        ...(bash !== undefined || command !== undefined ? { command: bash ?? command } : {}),
        ...(seconds === undefined ? {} : { timeout: seconds }),
        ...rest,
      },
    ],
  };
}
