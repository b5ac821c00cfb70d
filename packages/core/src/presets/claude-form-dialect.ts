import type { ConfigDialect } from '../config/config-dialect.ts';
import { claudeDialect } from './claude/claude-dialect.ts';
import { isObject } from './canonical-call.ts';

/**
 * A dialect whose `hooks` object is Claude Code's once each event's entries are rewritten by
 * `asClaudeEntry` (Gemini CLI, Cursor, Copilot, Windsurf): it is read, checked and described by Claude
 * Code's dialect in that form, and every other top-level key of the file is ignored. `asClaudeEntry`
 * gets each object entry of an event's list; anything not as expected stays as written, for the
 * checks to report.
 */
export function claudeFormDialect(asClaudeEntry: (entry: Readonly<Record<string, unknown>>) => unknown): ConfigDialect {
  const asClaudeForm = (hooks: unknown): unknown => {
    if (!isObject(hooks)) return hooks;
    return Object.fromEntries(
      Object.entries(hooks).map(([event, entries]) => [
        event,
        Array.isArray(entries)
          ? (entries as readonly unknown[]).map((entry) => (isObject(entry) ? asClaudeEntry(entry) : entry))
          : entries,
      ]),
    );
  };
  return {
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
}
