import { integerInRange, type HookOptions } from '@hookline/core/plugin';
import * as v from 'valibot';
import { MAX_MEMORY_LIMIT_MB, MIN_MEMORY_LIMIT_MB } from './defaults.ts';

const memoryMessage = `must be an integer from ${MIN_MEMORY_LIMIT_MB} to ${MAX_MEMORY_LIMIT_MB} (MiB)`;

/** The valibot object schema of a script hook's own keys; the core merges them with the common hook keys. */
export const scriptOptions = v.object({
  script: v.optional(
    v.pipe(
      v.string('must be a string holding JavaScript'),
      v.regex(/\S/, 'must not be empty or only whitespace'),
      v.description(
        'Inline JavaScript: the body of an async function that sees the frozen `context` and returns a decision object, true (proceed), false (block) or nothing (proceed).',
      ),
    ),
  ),
  file: v.optional(
    v.pipe(
      v.string('must be a string holding a path to a JavaScript file'),
      v.regex(/\S/, 'must not be empty or only whitespace'),
      v.description(
        "A JavaScript file holding such a function body, resolved from this config file's folder and re-read when it changes.",
      ),
    ),
  ),
  memory_limit_mb: v.optional(
    v.pipe(
      integerInRange(MIN_MEMORY_LIMIT_MB, MAX_MEMORY_LIMIT_MB, memoryMessage),
      v.description('Memory limit of the V8 isolate that runs this hook, in MiB (default 32).'),
    ),
  ),
});

/**
 * The keys of a `type = "script"` hook as its runner receives them: inline `script` or a `file`
 * (resolved from the config file's folder), and `memory_limit_mb` (the runner's `memoryLimitMb` when absent).
 */
export type ScriptHookOptions = HookOptions<typeof scriptOptions>;
