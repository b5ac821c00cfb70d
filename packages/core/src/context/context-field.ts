/**
 * The JSON type of a documented context field. Hosts send what they send — the engine checks only
 * required fields — but tools that build a context from text (`hookline emit --set`) read values by it.
 */
export type ContextFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/**
 * What a command line fills in for a field an emit lacks, so that a bare `hookline emit <event>`
 * works: a fresh session key (`cli-<UTC time>-<hex>`, its own sandbox session), or fixed text.
 */
export type CliContextDefault = { readonly kind: 'session-key' } | { readonly kind: 'text'; readonly text: string };

/** One documented field of a preset's context. */
export interface ContextField {
  readonly type: ContextFieldType;
  /**
   * Every emit must carry the field, as a non-empty string (a host contract, checked by `emit`).
   * Required fields are therefore of type `string`.
   */
  readonly required?: boolean;
  /** What a command line fills in when the field is missing; none: the user must give it. */
  readonly cliDefault?: CliContextDefault;
}

/** A preset's documented context fields, by name, in the order its documentation lists them. */
export type ContextSchema = Readonly<Record<string, ContextField>>;

// A schema is data fixed at definition; the required list is read on every emit.
const requiredCache = new WeakMap<ContextSchema, readonly string[]>();

/** The names of the fields every emit must carry. */
export function requiredFields(schema: ContextSchema): readonly string[] {
  let fields = requiredCache.get(schema);
  if (fields === undefined) {
    fields = Object.keys(schema).filter((field) => schema[field]!.required === true);
    requiredCache.set(schema, fields);
  }
  return fields;
}

/** Documented fields that share a type, to spread into a schema: `...fieldsOf('string', 'cwd', 'node_id')`. */
export function fieldsOf(type: ContextFieldType, ...names: readonly string[]): ContextSchema {
  return Object.fromEntries(names.map((name) => [name, { type }]));
}
