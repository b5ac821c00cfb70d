import * as v from 'valibot';

/** Upper bound of `timeout_ms`: one hour (SPEC §2). */
export const MAX_TIMEOUT_MS = 3_600_000;

type TimeoutMessage = `must be an integer from 1 to ${typeof MAX_TIMEOUT_MS} (milliseconds)`;

// Spelled out because JSR's fast check needs explicit types on exports; it is exactly the inferred type.
/** valibot schemas of the keys every hook has, whatever its type (SPEC §2). */
export const commonHookKeys: {
  readonly name: v.OptionalSchema<v.SchemaWithPipe<readonly [v.StringSchema<'must be a string'>, v.NonEmptyAction<string, 'must not be empty'>]>, undefined>;
  readonly event: v.StringSchema<'must be a string naming an event'>;
  readonly type: v.OptionalSchema<v.StringSchema<'must be a string naming a hook type'>, undefined>;
  readonly matcher: v.OptionalSchema<v.StringSchema<'must be a string holding a regular expression'>, undefined>;
  readonly blocking: v.OptionalSchema<v.BooleanSchema<'must be true or false'>, undefined>;
  readonly timeout_ms: v.OptionalSchema<
    v.SchemaWithPipe<
      readonly [
        v.NumberSchema<TimeoutMessage>,
        v.IntegerAction<number, TimeoutMessage>,
        v.MinValueAction<number, 1, TimeoutMessage>,
        v.MaxValueAction<number, typeof MAX_TIMEOUT_MS, TimeoutMessage>,
      ]
    >,
    undefined
  >;
  readonly sandbox: v.OptionalSchema<v.BooleanSchema<'must be true or false'>, undefined>;
  readonly on_error: v.OptionalSchema<v.PicklistSchema<['proceed', 'block'], 'must be "proceed" or "block"'>, undefined>;
  readonly enabled: v.OptionalSchema<v.BooleanSchema<'must be true or false'>, undefined>;
} = {
  name: v.optional(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'))),
  event: v.string('must be a string naming an event'),
  type: v.optional(v.string('must be a string naming a hook type')),
  matcher: v.optional(v.string('must be a string holding a regular expression')),
  blocking: v.optional(v.boolean('must be true or false')),
  timeout_ms: v.optional(
    v.pipe(
      v.number(`must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds)`),
      v.integer(`must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds)`),
      v.minValue(1, `must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds)`),
      v.maxValue(MAX_TIMEOUT_MS, `must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds)`),
    ),
  ),
  sandbox: v.optional(v.boolean('must be true or false')),
  on_error: v.optional(v.picklist(['proceed', 'block'], 'must be "proceed" or "block"')),
  enabled: v.optional(v.boolean('must be true or false')),
} as const;

/** Names of the common keys, which no runner may redefine. */
export const COMMON_HOOK_KEY_NAMES: readonly string[] = Object.keys(commonHookKeys);
