import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { integerInRange } from '../plugins/integer-in-range.ts';

/** Upper bound of `timeout_ms`: one hour. */
export const MAX_TIMEOUT_MS = 3_600_000;

const TIMEOUT_RULE = `must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds)`;

/** valibot schemas of the keys every hook has, whatever its type. */
export const commonHookKeys: Readonly<
  Record<
    | 'name'
    | 'event'
    | 'type'
    | 'matcher'
    | 'blocking'
    | 'timeout_ms'
    | 'sandbox'
    | 'on_error'
    | 'enabled'
    | 'locked'
    | 'durable',
    GenericSchema
  >
> = {
  name: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.nonEmpty('must not be empty'),
      v.description("Names the hook in reports, and across layers: a later file's hook of the same name replaces it."),
    ),
  ),
  event: v.string('must be a string naming an event'),
  type: v.optional(
    v.pipe(
      v.string('must be a string naming a hook type'),
      v.description('What the hook does; a hook with `command` and no type is a command hook.'),
    ),
  ),
  matcher: v.optional(
    v.pipe(
      v.string('must be a string holding a regular expression'),
      v.description(
        "A regular expression in RE2 syntax, unanchored: the hook runs only when it matches one of the preset's matcher fields in the context.",
      ),
    ),
  ),
  blocking: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description("Whether the host waits for this hook's decision; the event's default when absent."),
    ),
  ),
  timeout_ms: v.optional(
    v.pipe(
      integerInRange(1, MAX_TIMEOUT_MS, TIMEOUT_RULE),
      v.description("Milliseconds before the hook is stopped and reported timed_out; the type's default when absent."),
    ),
  ),
  sandbox: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description('Run in the configured sandbox (true) or on the host with its full environment (false).'),
    ),
  ),
  on_error: v.optional(
    v.pipe(
      v.picklist(['proceed', 'block'], 'must be "proceed" or "block"'),
      v.description('The decision when the hook fails or times out: "block" fails closed, "proceed" fails open.'),
    ),
  ),
  enabled: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description('false switches the hook off, also one an earlier layer defined.'),
    ),
  ),
  // (beyond) a user-layer guard that a project's config may not weaken: see layer-entries.ts.
  locked: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description(
        'true: no later (less trusted) layer may replace or disable this hook; an attempt is ignored and reported in every outcome.',
      ),
    ),
  ),
  // (beyond) journaled before emit returns and run again after a crash until it ran; non-blocking only.
  durable: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description(
        'Journal the event before emit returns and run this non-blocking hook again after a crash until it ran.',
      ),
    ),
  ),
};

/** Names of the common keys, which no runner may redefine. */
export const COMMON_HOOK_KEY_NAMES: readonly string[] = Object.keys(commonHookKeys);
