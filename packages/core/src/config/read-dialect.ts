import type { GenericSchema } from 'valibot';
import type { ConfigDialect, DialectPreset, DialectResult, DialectSource } from './config-dialect.ts';
import { formIssues } from './form-issues.ts';
import type { HookSchemas } from './hook-schemas.ts';

// A dialect's form with its hooks left open depends only on the preset: built once per pair.
const openForms = new WeakMap<ConfigDialect, WeakMap<DialectPreset, GenericSchema>>();

function openForm(dialect: ConfigDialect, preset: DialectPreset): GenericSchema {
  let forms = openForms.get(dialect);
  if (forms === undefined) openForms.set(dialect, (forms = new WeakMap()));
  let form = forms.get(preset);
  if (form === undefined) forms.set(preset, (form = dialect.hooksSchema(preset)));
  return form;
}

/**
 * Reads a source's hooks in a dialect: the form of `hooks` checked with the dialect's schema (hooks
 * left open), then the hooks rewritten into canonical tables with their own problems.
 */
export function readDialect(
  dialect: ConfigDialect,
  source: DialectSource,
  preset: DialectPreset,
  schemas?: HookSchemas,
): DialectResult {
  const { file, data, lines } = source;
  const hooksLine = lines.topLevel('hooks') ?? 1;
  const line = (path: ReadonlyArray<string | number>): number => {
    const written = dialect.formLine?.(path, lines);
    if (written !== undefined) return written;
    // The nearest written part of the path: JSON sources locate every value, TOML ones `hooks` itself.
    for (let length = path.length; length > 0; length--) {
      const found = lines.at(['hooks', ...path.slice(0, length)]);
      if (found !== undefined) return found;
    }
    return hooksLine;
  };
  const issues =
    data['hooks'] === undefined
      ? []
      : formIssues(openForm(dialect, preset), dialect.formValue?.(data['hooks']) ?? data['hooks'], { file, line });
  const read = dialect.readHooks(source, preset, schemas);
  return { ...read, issues: [...issues, ...read.issues] };
}
