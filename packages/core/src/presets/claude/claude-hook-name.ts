import { firstCharacters } from '../../config/effective-name.ts';

/** How much of a command an effective name shows before it is cut and tagged with a hash. */
const NAME_CHARACTERS = 60;

/**
 * An unnamed Claude Code hook's effective name, `{Event}:{matcher or *}:{command, url or prompt}`, so
 * that the same hook in two settings files is one hook and identical entries of one file collapse.
 */
export function claudeHookName(event: string, label: string, table: Readonly<Record<string, unknown>>): string {
  const identity = [table['command'], table['url'], table['prompt']].find(
    (value): value is string => typeof value === 'string',
  );
  const type = table['type'];
  const text = identity ?? (typeof type === 'string' ? type : 'hook');
  const shown =
    Array.from(text).length <= NAME_CHARACTERS ? text : `${firstCharacters(text, NAME_CHARACTERS)}…#${hash(text)}`;
  return `${event}:${label}:${shown}`;
}

// FNV-1a (32 bits) in hex: tells apart long commands that share their first characters in a name.
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, '0');
}
