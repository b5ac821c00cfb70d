import type { GenericSchema } from 'valibot';
import { keyRuleJsonSchema, type KeyRule } from '../plugins/key-rule.ts';

// Rules ride on the schema object they constrain, so whoever holds the schema — the loader or the
// JSON Schema generator — finds them there instead of in a second table kept beside it.
const rulesBySchema = new WeakMap<object, readonly KeyRule[]>();

/** Marks `schema` as constrained by `rules` (added to any it carries already) and returns it. */
export function withRules<TSchema extends GenericSchema>(schema: TSchema, rules: readonly KeyRule[]): TSchema {
  if (rules.length > 0) rulesBySchema.set(schema, [...rulesOf(schema), ...rules]);
  return schema;
}

/** The rules `withRules` put on `schema`. */
export function rulesOf(schema: GenericSchema): readonly KeyRule[] {
  return rulesBySchema.get(schema) ?? [];
}

/**
 * For `toJsonSchema`'s `overrideSchema`: a schema that carries rules becomes its JSON Schema plus one
 * `if`/`then` per rule under `allOf`.
 */
export function ruledJsonSchema(context: {
  readonly valibotSchema: GenericSchema;
  readonly jsonSchema: object;
}): Record<string, unknown> | undefined {
  const rules = rulesOf(context.valibotSchema);
  return rules.length === 0 ? undefined : { ...context.jsonSchema, allOf: rules.map(keyRuleJsonSchema) };
}
