import type { GenericSchema } from 'valibot';

/** A problem in a config's form, as a `ConfigIssue` words it. */
export interface FormProblem {
  readonly message: string;
  readonly fix?: string;
}

/**
 * How one node of a dialect's form words its problems, for the loader. `where` is the node's path as
 * the user would write it (`hooks.PreToolUse[0]`); `key` is the path's last key.
 */
export interface FormWording {
  /** The value is not of the node's type. */
  wrongType?(where: string, key: string | number | undefined): FormProblem;
  /** The (strict) object has a key its schema does not: `known` are the keys it has. */
  unknownKey?(key: string, where: string, known: readonly string[]): FormProblem;
}

// Wording rides on the schema object it words, as rules do (see ruled-schema.ts).
const wordingBySchema = new WeakMap<object, FormWording>();

/** Gives `schema` its wording and returns it. */
export function worded<TSchema extends GenericSchema>(schema: TSchema, wording: FormWording): TSchema {
  wordingBySchema.set(schema, wording);
  return schema;
}

/** The wording `worded` gave `schema`, if any. */
export function wordingOf(schema: GenericSchema): FormWording | undefined {
  return wordingBySchema.get(schema);
}
