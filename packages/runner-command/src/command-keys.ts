import * as v from 'valibot';

/** SPEC §7: stdout and stderr are each captured up to 1 MiB unless configured otherwise. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;

/**
 * Upper bound of `max_output_bytes`: a hook's output is held in memory until it ends, so a per-hook
 * setting may raise the cap, but not without limit.
 */
export const MAX_OUTPUT_BYTES_LIMIT = 67_108_864;

const outputLimitMessage = `must be an integer from 1 to ${MAX_OUTPUT_BYTES_LIMIT} (bytes per stream)`;
type OutputLimitMessage = typeof outputLimitMessage;

/** The keys of a `type = "command"` hook, as the config file spells them. */
export interface CommandHookOptions {
  /** The shell command, run as `{preset.shell} -c command`. */
  readonly command: string;
  /** Per-stream capture cap for this hook; the runner's `maxOutputBytes` when absent. */
  readonly max_output_bytes?: number;
}

// Spelled out because JSR's fast check needs explicit types on exports; it is exactly the inferred type.
/** valibot schemas of a command hook's own keys; the core merges them with the common hook keys. */
export const commandKeys: {
  readonly command: v.SchemaWithPipe<
    readonly [
      v.StringSchema<'must be a string holding a shell command'>,
      v.RegexAction<string, 'must not be empty or only whitespace'>,
    ]
  >;
  readonly max_output_bytes: v.OptionalSchema<
    v.SchemaWithPipe<
      readonly [
        v.NumberSchema<OutputLimitMessage>,
        v.IntegerAction<number, OutputLimitMessage>,
        v.MinValueAction<number, 1, OutputLimitMessage>,
        v.MaxValueAction<number, typeof MAX_OUTPUT_BYTES_LIMIT, OutputLimitMessage>,
      ]
    >,
    undefined
  >;
} = {
  command: v.pipe(v.string('must be a string holding a shell command'), v.regex(/\S/, 'must not be empty or only whitespace')),
  max_output_bytes: v.optional(
    v.pipe(
      v.number(outputLimitMessage),
      v.integer(outputLimitMessage),
      v.minValue(1, outputLimitMessage),
      v.maxValue(MAX_OUTPUT_BYTES_LIMIT, outputLimitMessage),
    ),
  ),
};
