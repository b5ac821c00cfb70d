import type { ConfigDialect } from '../../config/config-dialect.ts';
import { claudeDialect } from '../claude/claude-dialect.ts';

/**
 * Cursor's `hooks.json` form (its published hooks reference): `{"version": 1, "hooks":
 * {"beforeShellExecution": [{"command": "./guard.sh", "timeout": 30, "matcher": "…"}]}}` — a flat
 * list of hooks per event, timeouts in seconds, `failClosed: true` for a hook whose failure must
 * block. Each entry is read as a matcher group of one hook in Claude Code's form (`failClosed`
 * becomes `on_error = "block"`); `version` and other top-level keys are ignored.
 */
export const cursorDialect: ConfigDialect = {
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

/** Cursor's `hooks` object in Claude Code's form; parts that are not as expected stay as written. */
export function asClaudeForm(hooks: unknown): unknown {
  if (!isObject(hooks)) return hooks;
  return Object.fromEntries(
    Object.entries(hooks).map(([event, entries]) => [
      event,
      Array.isArray(entries)
        ? (entries as readonly unknown[]).map((entry) => (isObject(entry) ? asClaudeGroup(entry) : entry))
        : entries,
    ]),
  );
}

function asClaudeGroup(entry: Record<string, unknown>): Record<string, unknown> {
  const { matcher, failClosed, ...hook } = entry;
  const closed = failClosed === true && hook['on_error'] === undefined ? { on_error: 'block' } : {};
  return {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', ...hook, ...closed }],
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
