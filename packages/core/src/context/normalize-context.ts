import { InvalidContextError } from '../errors/invalid-context-error.ts';
import type { Preset } from '../presets/preset.ts';
import { requiredFields } from './context-field.ts';
import type { EventContext } from './event-context.ts';

/**
 * Checks a host's context: a JSON object, whose `event` (if given) agrees with the emitted event, with
 * the preset's required fields (`required`, read from the preset when not given) as non-empty strings.
 * Throws {@link InvalidContextError} otherwise.
 */
export function checkContext(
  event: string,
  context: unknown,
  preset: Preset,
  required: readonly string[] = requiredFields(preset.context),
): asserts context is Record<string, unknown> {
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    const kind = context === null ? 'null' : Array.isArray(context) ? 'an array' : typeof context;
    throw new InvalidContextError(`The context for "${event}" must be a JSON object, got ${kind}.`);
  }
  const given = context as Record<string, unknown>;
  if (given['event'] !== undefined && given['event'] !== null && given['event'] !== event) {
    throw new InvalidContextError(
      `The context says event ${JSON.stringify(given['event'])} but was emitted as "${event}"; drop the field or make them agree.`,
    );
  }
  // A loop rather than filter: this runs on every emit, and the usual context is valid.
  let missing: string[] | undefined;
  for (const field of required) {
    if (typeof given[field] !== 'string' || given[field] === '') (missing ??= []).push(field);
  }
  if (missing !== undefined) {
    throw new InvalidContextError(
      `The context for "${event}" lacks ${missing.map((field) => `"${field}"`).join(', ')}: preset "${preset.name}" requires ${
        missing.length === 1 ? 'it' : 'them'
      } as non-empty strings.`,
    );
  }
}

/**
 * Returns a checked context with `event` set and absent/null top-level fields removed (they
 * are omitted, not serialised as null). Nested values are the host's data and are kept as they are.
 */
export function normalizeContext(event: string, context: Record<string, unknown>): EventContext {
  const normalized: Record<string, unknown> = { event };
  // for…in with an own-property check is Object.keys without its array: this runs on every emit.
  for (const field in context) {
    if (!Object.hasOwn(context, field)) continue;
    const value = context[field];
    if (field !== 'event' && value !== undefined && value !== null) normalized[field] = value;
  }
  return normalized as EventContext;
}
