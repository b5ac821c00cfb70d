import * as v from 'valibot';
import type { KeyRule } from '../plugins/key-rule.ts';
import type { DialectPreset } from './dialect-preset.ts';

const NEEDS_NON_BLOCKING = '`durable = true` needs a non-blocking hook, and this one blocks';
const FIX =
  "set blocking = false, or remove `durable`: a blocking hook's decision is needed before emit returns, so running it again after a crash could not change anything";

/**
 * `durable = true` needs a non-blocking hook. A hook blocks by saying `blocking = true`, or by leaving
 * `blocking` out on an event that blocks by default — a fact of the preset's catalog, so the second
 * rule names those events. As rules, both are checked by the loader and stated in the JSON Schema.
 */
export function durableRules(preset: DialectPreset): KeyRule[] {
  const events = preset.events.map((event) => event.name);
  const blockingEvents = preset.events.filter((event) => event.blocking).map((event) => event.name);
  if (events.length === 0) return [];
  const saysBlocking: KeyRule = {
    when: { durable: v.literal(true), blocking: v.literal(true), event: v.picklist(events) },
    then: { blocking: v.literal(false) },
    key: 'durable',
    message: NEEDS_NON_BLOCKING,
    fix: FIX,
  };
  if (blockingEvents.length === 0) return [saysBlocking];
  const blocksByDefault: KeyRule = {
    // `v.optional(v.never())`: the key is absent (JSON Schema: `"blocking": { "not": {} }`).
    when: { durable: v.literal(true), blocking: v.optional(v.never()), event: v.picklist(blockingEvents) },
    then: { blocking: v.literal(false) },
    key: 'durable',
    message: (hook) => `${NEEDS_NON_BLOCKING} ("${String(hook['event'])}" blocks by default)`,
    fix: FIX,
  };
  return [saysBlocking, blocksByDefault];
}
