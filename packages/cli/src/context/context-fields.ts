import type { ContextFieldType, Preset } from '@hookline/core';

/**
 * The documented context fields of a preset with their types: its context schema, plus its matcher
 * fields (text) that the schema does not list (`arc` matches `tool_name` without documenting it).
 */
export function contextFieldTypes(preset: Preset): ReadonlyMap<string, ContextFieldType> {
  const fields = new Map<string, ContextFieldType>();
  for (const [field, { type }] of Object.entries(preset.context)) fields.set(field, type);
  for (const field of preset.matcherFields) if (!fields.has(field)) fields.set(field, 'string');
  return fields;
}
