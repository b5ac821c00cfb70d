import * as v from 'valibot';

// A number and a unit: ms, s, m, h or d ("250ms", "5s", "30m", "2h", "1d"); "1h30m" is not accepted.
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds in a duration written as `250ms`, `5s`, `30m`, `2h` or `1d`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (match === null) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}

/** A duration key: `"5s"`, `"30m"`, … or a whole number of milliseconds; outputs milliseconds. */
export function durationSchema(description: string) {
  return v.pipe(
    v.union(
      [
        v.pipe(v.number(), v.integer(), v.minValue(0)),
        v.pipe(
          v.string(),
          v.check(
            (text) => parseDuration(text) !== undefined,
            'must be a duration such as "250ms", "5s", "30m", "2h" or "1d"',
          ),
        ),
      ],
      'must be a duration such as "5s", "30m", "2h" (or whole milliseconds)',
    ),
    v.transform((value) => (typeof value === 'number' ? value : parseDuration(value)!)),
    v.description(description),
  );
}
