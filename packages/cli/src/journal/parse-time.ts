import { CliError } from '../cli-error.ts';

// An age: "90s", "30m", "24h", "7d" — that long before now.
const AGE = /^(\d+)(s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A point in time given on the command line (`--since`, `--before`): an ISO 8601 date or date-time
 * (`2026-12-01`, `2026-12-01T08:00:00Z`), or an age such as `24h` or `7d` (that long ago). Resolves to
 * ms since the epoch.
 */
export function parseTime(text: string, flag: string, now = Date.now()): number {
  const age = AGE.exec(text.trim());
  if (age !== null) return now - Number(age[1]) * UNIT_MS[age[2]!]!;
  // Only date forms: Date.parse also takes "1" or "May", which nobody means here.
  const time = /^\d{4}-\d{2}-\d{2}/.test(text.trim()) ? Date.parse(text.trim()) : Number.NaN;
  if (Number.isNaN(time))
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `${flag} needs a date (2026-12-01, 2026-12-01T08:00:00Z) or an age (30m, 24h, 7d), got ${JSON.stringify(text)}.`,
    );
  return time;
}
