import * as v from 'valibot';
import { integerInRange, type HookOptions } from '@hookline/core/plugin';

/** Stdout and stderr are each captured up to 1 MiB unless configured otherwise. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;

/**
 * Upper bound of `max_output_bytes`: a hook's output is held in memory until it ends, so a per-hook
 * setting may raise the cap, but not without limit.
 */
export const MAX_OUTPUT_BYTES_LIMIT = 67_108_864;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const passthroughMessage = 'must be an array of variable names, e.g. ["NPM_TOKEN", "AWS_PROFILE"]';

const outputLimitMessage = `must be an integer from 1 to ${MAX_OUTPUT_BYTES_LIMIT} (bytes per stream)`;

// JSR's fast check needs explicit types on exports: these spell out what each key's schema outputs,
// so the schema's own type (and through it the runner's options) stays exact.
/** The schemas of a `type = "command"` hook's keys, by what each one outputs. */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- an interface lacks the index signature valibot's `ObjectEntries` needs
export type CommandOptionsEntries = {
  /** The shell command, run as `{preset.command.shell} -c command`. */
  readonly command: v.GenericSchema<string>;
  /** Per-stream capture cap for this hook; the runner's `maxOutputBytes` when absent. */
  readonly max_output_bytes: v.OptionalSchema<v.GenericSchema<number>, undefined>;
  /**
   * Host variables this hook gets on top of its sandbox's allow-list (`["NPM_TOKEN"]`), read from the
   * runner's environment at each run; unset ones are left out.
   */
  readonly env_passthrough: v.OptionalSchema<v.GenericSchema<string[]>, undefined>;
};

/** The valibot object schema of a command hook's own keys; the core merges them with the common hook keys. */
export const commandOptions: v.ObjectSchema<CommandOptionsEntries, undefined> = v.object({
  command: v.pipe(
    v.string('must be a string holding a shell command'),
    v.regex(/\S/, 'must not be empty or only whitespace'),
    v.description("The shell command, run with the preset's shell (sh -c); it answers by exit code and stdout."),
  ),
  max_output_bytes: v.optional(
    v.pipe(
      integerInRange(1, MAX_OUTPUT_BYTES_LIMIT, outputLimitMessage),
      v.description(
        'Bytes of stdout and of stderr kept per stream (default 1 MiB); the rest is dropped, the hook keeps running.',
      ),
    ),
  ),
  env_passthrough: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(passthroughMessage),
          v.regex(
            VARIABLE_NAME,
            (issue) =>
              `holds ${JSON.stringify(issue.input)}, which is not a variable name (letters, digits and _, not starting with a digit)`,
          ),
        ),
        passthroughMessage,
      ),
      v.description(
        "Host environment variables this hook receives on top of the sandbox's allow-list (PATH, HOME, USER, LOGNAME, SHELL, LANG, LC_*, TERM, TZ, TMPDIR).",
      ),
    ),
  ),
});

/** The keys of a `type = "command"` hook as its runner receives them, validated. */
export type CommandHookOptions = HookOptions<typeof commandOptions>;
