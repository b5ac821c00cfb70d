import type { GenericSchema, ObjectEntries } from 'valibot';

const OBJECT_TYPES = ['object', 'loose_object', 'strict_object', 'object_with_rest'];

/**
 * The entries of a table schema that is an object schema, or an object schema piped into actions
 * (a transform): what core checks unknown keys against and lists in the JSON Schema. `undefined`
 * for any other schema (a record such as `[models]`, whose keys are free).
 */
export function settingsEntries(schema: GenericSchema): ObjectEntries | undefined {
  const candidate = schema as GenericSchema & {
    readonly entries?: ObjectEntries;
    readonly pipe?: readonly GenericSchema[];
  };
  if (OBJECT_TYPES.includes(candidate.type) && candidate.entries !== undefined) return candidate.entries;
  const first = candidate.pipe?.[0];
  return first === undefined || first === schema ? undefined : settingsEntries(first);
}
