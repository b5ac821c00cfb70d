import * as v from 'valibot';

/**
 * An integer from `min` to `max`, every way of missing it worded as `message` — so a value of the
 * wrong type and one out of range get the same sentence, which states the whole rule. For keys and
 * settings that count something (milliseconds, bytes, rounds).
 */
export function integerInRange(min: number, max: number, message: string): v.GenericSchema<number> {
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}
