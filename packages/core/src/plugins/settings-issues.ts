import type { BaseIssue } from 'valibot';
import { nearestWord } from '../config/nearest-word.ts';
import { parseByteSize } from './parse-byte-size.ts';

/**
 * The message of a provider's strict settings object (`v.strictObject(entries, message)`): an unknown
 * key gets the nearest known one as a suggestion, or the list of keys; anything but a table says so.
 */
export function unknownSettingMessage(keys: readonly string[], what: string): (issue: BaseIssue<unknown>) => string {
  return (issue) => {
    if (issue.expected !== 'never') return `must be a table of ${what} settings`;
    const last = issue.path?.at(-1)?.key;
    const key = typeof last === 'string' ? last : issue.received;
    const near = nearestWord(key, keys);
    return `unknown setting \`${key}\`${near === undefined ? `; the settings are ${keys.join(', ')}` : ` — did you mean \`${near}\`?`}`;
  };
}

/** Where a settings issue is, as the user writes it: `memory`, `mounts[1]`, `tmpfs./run`; empty for the table itself. */
export function settingKey(issue: BaseIssue<unknown>): string {
  let key = '';
  for (const item of issue.path ?? []) {
    const part = item.key;
    key += typeof part === 'number' ? `[${part}]` : key === '' ? String(part) : `.${String(part)}`;
  }
  return key;
}

/** Why a byte size setting is not acceptable (see `parseByteSize`), or `undefined` when it is. */
export function byteSizeProblem(value: number | string, minimum: number, minimumReason: string): string | undefined {
  const bytes = parseByteSize(value);
  if (bytes === undefined)
    return `must be a number of bytes or a size such as "512m", "1g" or "256MiB", got ${JSON.stringify(value)}`;
  if (bytes < minimum) return `must be at least ${minimumReason}, got ${bytes} bytes`;
  return undefined;
}
