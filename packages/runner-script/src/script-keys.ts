import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { MAX_MEMORY_LIMIT_MB, MIN_MEMORY_LIMIT_MB } from './defaults.ts';

/** The keys of a `type = "script"` hook, as the config file spells them, after validation. */
export interface ScriptHookOptions {
  /** Inline JavaScript: the body of an async function that receives `context`. */
  readonly script?: string;
  /** A file holding such a body, resolved from the config file's folder. */
  readonly file?: string;
  /** This hook's isolate memory limit; the runner's `memoryLimitMb` when absent. */
  readonly memory_limit_mb?: number;
}

const memoryMessage = `must be an integer from ${MIN_MEMORY_LIMIT_MB} to ${MAX_MEMORY_LIMIT_MB} (MiB)`;

/** valibot schemas of a script hook's own keys; the core merges them with the common hook keys. */
export const scriptKeys: Readonly<Record<keyof ScriptHookOptions, GenericSchema>> = {
  script: v.optional(
    v.pipe(
      v.string('must be a string holding JavaScript'),
      v.regex(/\S/, 'must not be empty or only whitespace'),
      v.description('Inline JavaScript: the body of an async function that sees the frozen `context` and returns a decision object, true (proceed), false (block) or nothing (proceed).'),
    ),
  ),
  file: v.optional(
    v.pipe(
      v.string('must be a string holding a path to a JavaScript file'),
      v.regex(/\S/, 'must not be empty or only whitespace'),
      v.description("A JavaScript file holding such a function body, resolved from this config file's folder and re-read when it changes."),
    ),
  ),
  memory_limit_mb: v.optional(
    v.pipe(
      v.number(memoryMessage),
      v.integer(memoryMessage),
      v.minValue(MIN_MEMORY_LIMIT_MB, memoryMessage),
      v.maxValue(MAX_MEMORY_LIMIT_MB, memoryMessage),
      v.description('Memory limit of the V8 isolate that runs this hook, in MiB (default 32).'),
    ),
  ),
};

/** Reads a loaded hook's options (already validated by the schema at load). */
export function scriptHookOptions(options: Readonly<Record<string, unknown>>): ScriptHookOptions {
  return options as ScriptHookOptions;
}
