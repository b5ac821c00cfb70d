import * as v from 'valibot';
import type { GenericSchema } from 'valibot';

/** Upper bound of `timeout_ms`: one hour (SPEC §2). */
export const MAX_TIMEOUT_MS = 3_600_000;

const TIMEOUT_RULE = `must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds)`;

/** valibot schemas of the keys every hook has, whatever its type (SPEC §2). */
export const commonHookKeys: Readonly<Record<'name' | 'event' | 'type' | 'matcher' | 'blocking' | 'timeout_ms' | 'sandbox' | 'on_error' | 'enabled' | 'durable', GenericSchema>> = {
  name: v.optional(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'))),
  event: v.string('must be a string naming an event'),
  type: v.optional(v.string('must be a string naming a hook type')),
  matcher: v.optional(v.string('must be a string holding a regular expression')),
  blocking: v.optional(v.boolean('must be true or false')),
  timeout_ms: v.optional(
    v.pipe(
      v.number(TIMEOUT_RULE),
      v.integer(TIMEOUT_RULE),
      v.minValue(1, TIMEOUT_RULE),
      v.maxValue(MAX_TIMEOUT_MS, TIMEOUT_RULE),
    ),
  ),
  sandbox: v.optional(v.boolean('must be true or false')),
  on_error: v.optional(v.picklist(['proceed', 'block'], 'must be "proceed" or "block"')),
  enabled: v.optional(v.boolean('must be true or false')),
  // (beyond) journaled before emit returns and run again after a crash until it ran; non-blocking only.
  durable: v.optional(v.boolean('must be true or false')),
};

/** Names of the common keys, which no runner may redefine. */
export const COMMON_HOOK_KEY_NAMES: readonly string[] = Object.keys(commonHookKeys);
