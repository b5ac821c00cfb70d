import type { Preset } from '@hookline/core';

/** How `--set` reads a value for a context field. */
export type FieldKind = 'string' | 'integer';

// SPEC §4 types: `attempt` and `max_attempts` are counts; every other documented field is text.
// Core's presets list the field names but not their types, so the integers are named here.
const INTEGER_FIELDS = new Set(['attempt', 'max_attempts']);

/** The documented context fields of a preset (required, optional and matcher fields) with their kinds. */
export function contextFieldKinds(preset: Preset): ReadonlyMap<string, FieldKind> {
  const fields = new Map<string, FieldKind>();
  for (const field of [...preset.requiredContextFields, ...preset.contextFields, ...preset.matcherFields]) {
    fields.set(field, INTEGER_FIELDS.has(field) ? 'integer' : 'string');
  }
  return fields;
}
