import { clipText } from '@hookline/core/plugin';
import { DEFAULT_MAX_LINE_BYTES } from './line-limits.ts';

/**
 * The JSON text of one answer line, at most `maxBytes` long and always valid JSON. Core already cuts
 * reasons and errors; what else a runner put into a report (its `details`, a flood of warnings) can
 * still be arbitrarily large, and one huge line must neither kill the CLI ("Invalid string length")
 * nor choke the host reading it. A line that does not fit has its long strings cut (each marked
 * `… (cut at N characters)`) and its long arrays shortened, more and more, and `"truncated": true`
 * added; as a last resort it keeps only the outcome's essentials: event, decision, reason, who
 * decided, the override's edge (or, for an error line, the error).
 */
export function boundAnswerLine(output: object, maxBytes: number = DEFAULT_MAX_LINE_BYTES): string {
  const whole = stringify(output);
  if (whole !== undefined && fits(whole, maxBytes)) return whole;
  // A quarter of the line per string first: a line has a few long strings at most.
  for (let longest = Math.floor(maxBytes / 4); longest >= 64; longest = Math.floor(longest / 4)) {
    const text = stringify({ ...(shrink(output, longest) as object), truncated: true });
    if (text !== undefined && fits(text, maxBytes)) return text;
  }
  const record = output as Record<string, unknown>;
  const essentials: Record<string, unknown> = {};
  for (const key of ['line', 'event', 'decision', 'reason', 'decided_by', 'edge_to', 'error']) {
    if (record[key] !== undefined) essentials[key] = shrink(record[key], 128);
  }
  return JSON.stringify({ ...essentials, truncated: true });
}

/** `value` with strings longer than `longest` cut, and arrays to their first `longest / 8` items. */
function shrink(value: unknown, longest: number): unknown {
  if (typeof value === 'string') return clipText(value, longest);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value))
    return value.slice(0, Math.max(1, Math.floor(longest / 8))).map((item) => shrink(item, longest));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[clipText(key, longest)] = shrink(item, longest);
  return copy;
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    // Longer than the longest string V8 can make: cut first.
    return undefined;
  }
}

function fits(text: string, maxBytes: number): boolean {
  // Each UTF-16 unit is at most 3 UTF-8 bytes; only count when it could matter.
  return text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes;
}
