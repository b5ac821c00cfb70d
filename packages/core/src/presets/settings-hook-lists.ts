import type { BridgeEntry, SettingsCommand } from './agent-adapter.ts';
import { isObject } from './canonical-call.ts';

// The agents' settings files keep their hooks as `{"hooks": {"<event>": [ … ]}}`: matcher groups (Claude
// Code and those that copied it), or flat entries, one hook each (Cursor, Copilot, Windsurf). These are
// the edits every {@link AgentSettings} makes to those lists.

type Json = Readonly<Record<string, unknown>>;

/**
 * `settings` with each event's list replaced by what `edit` keeps of it; a list left empty is removed,
 * and so is a `hooks` object left empty. Anything that is not a list stays as written.
 */
export function editHookLists(settings: Json, edit: (list: readonly unknown[]) => unknown[]): Record<string, unknown> {
  if (!isObject(settings['hooks'])) return { ...settings };
  const hooks: Record<string, unknown> = {};
  for (const [event, value] of Object.entries(settings['hooks'])) {
    if (!Array.isArray(value)) {
      hooks[event] = value;
      continue;
    }
    const kept = edit(value);
    if (kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _dropped, ...rest } = settings;
  return Object.keys(hooks).length === 0 ? rest : { ...rest, hooks };
}

/** How an agent with flat entries writes and reads one. */
export interface FlatEntries {
  /** The command line a flat entry runs (Copilot: `bash`, else `command`); none when it has none. */
  readonly lineOf: (item: Json) => string | undefined;
  /** Hookline's entry for `event` and the command line it runs. */
  readonly ours: (event: string, entry: BridgeEntry) => { readonly line: string; readonly item: Json };
  /** `version: 1` is set when the file has no version (Cursor, Copilot). */
  readonly versioned: boolean;
}

/** An entry's `command`, when it is a string: the command line of Cursor's and Windsurf's entries. */
export function commandOf(item: Json): string | undefined {
  const line = item['command'];
  return typeof line === 'string' ? line : undefined;
}

/**
 * `settings` with Hookline's flat entry added for each of `events` that is `chosen`, in the order of
 * `events`, unless an entry with its command line is there.
 */
export function withFlatEntries(
  flat: FlatEntries,
  settings: Json,
  entry: BridgeEntry,
  events: readonly string[],
  chosen: readonly string[],
): Record<string, unknown> {
  const hooks: Record<string, unknown> = { ...(isObject(settings['hooks']) ? settings['hooks'] : {}) };
  for (const event of events.filter((candidate) => chosen.includes(candidate))) {
    const list = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    const { line, item } = flat.ours(event, entry);
    if (list.some((existing) => isObject(existing) && flat.lineOf(existing) === line)) continue;
    list.push(item);
    hooks[event] = list;
  }
  return flat.versioned ? { version: 1, ...settings, hooks } : { ...settings, hooks };
}

/** `settings` without the flat entries whose command line `isOurs`. */
export function withoutFlatEntries(
  flat: FlatEntries,
  settings: Json,
  isOurs: (command: string) => boolean,
): Record<string, unknown> {
  return editHookLists(settings, (list) =>
    list.filter((item) => {
      const line = isObject(item) ? flat.lineOf(item) : undefined;
      return line === undefined || !isOurs(line);
    }),
  );
}

/** Every command of the flat entries, by event, as `commandsOf` reads each entry. */
export function flatCommands(
  settings: Json,
  commandsOf: (event: string, item: Json) => SettingsCommand[],
): SettingsCommand[] {
  if (!isObject(settings['hooks'])) return [];
  return Object.entries(settings['hooks']).flatMap(([event, value]): SettingsCommand[] =>
    Array.isArray(value) ? value.flatMap((item: unknown) => (isObject(item) ? commandsOf(event, item) : [])) : [],
  );
}
