import type { ConfigDialect } from '../../config/config-dialect.ts';
import { claudeDialect } from '../claude/claude-dialect.ts';
import { isObject } from '../canonical-call.ts';

/**
 * Windsurf's `hooks.json` form (Cascade's hooks reference): `{"hooks": {"pre_run_command": [{"command":
 * "./guard.sh", "show_output": true}]}}` — a flat list of hooks per event. Each entry is read as a
 * matcher group of one command hook in Claude Code's form; `show_output` only decides what Windsurf's
 * UI shows and is dropped; `working_directory` and other keys stay as written (and are checked).
 */
export const windsurfDialect: ConfigDialect = {
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

/** Windsurf's `hooks` object in Claude Code's form; parts that are not as expected stay as written. */
export function asClaudeForm(hooks: unknown): unknown {
  if (!isObject(hooks)) return hooks;
  return Object.fromEntries(
    Object.entries(hooks).map(([event, entries]) => [
      event,
      Array.isArray(entries)
        ? (entries as readonly unknown[]).map((entry) => {
            if (!isObject(entry)) return entry;
            const { show_output: _shown, ...hook } = entry;
            return { hooks: [{ type: 'command', ...hook }] };
          })
        : entries,
    ]),
  );
}
