import type { AgentSettings, BridgeEntry, SettingsCommand } from './agent-adapter.ts';
import type { PresetConfigFile } from './host-io.ts';
import { isObject } from './canonical-call.ts';
import { editHookLists } from './settings-hook-lists.ts';

/** How an agent that keeps hooks as matcher groups writes them. */
export interface MatcherGroupOptions {
  readonly project: PresetConfigFile;
  readonly user: PresetConfigFile;
  /** The events to install an entry for, with the matcher of the entry's group (none: the group has no matcher). */
  readonly events: Readonly<Record<string, string | undefined>>;
  /** The unit of the entry's `timeout` key. */
  readonly timeoutUnit: 'seconds' | 'milliseconds';
  /** Other keys of the entry for `event` (Claude Code: `onFailure: "block"` on guard events). */
  readonly entryKeys?: (event: string) => Readonly<Record<string, unknown>>;
}

type Json = Readonly<Record<string, unknown>>;

/**
 * {@link AgentSettings} for the settings shape Claude Code introduced and other agents copied:
 * `{"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type": "command", "command": "…", "timeout": N}]}]}}`.
 * Hookline's entry is a group of its own under each event, so removing it never edits a user's group.
 */
export function matcherGroupSettings(options: MatcherGroupOptions): AgentSettings {
  const timeoutOf = (entry: BridgeEntry): number =>
    options.timeoutUnit === 'seconds' ? entry.timeoutSeconds : entry.timeoutSeconds * 1000;
  return {
    project: options.project,
    user: options.user,
    events: Object.keys(options.events),
    addEntries(settings, entry, events) {
      const hooks: Record<string, unknown> = { ...objectOr(settings['hooks']) };
      for (const [event, matcher] of Object.entries(options.events)) {
        if (!events.includes(event)) continue;
        const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
        const command = entry.command(event);
        if (groupCommands(groups).includes(command)) continue;
        const hook = { type: 'command', command, timeout: timeoutOf(entry), ...options.entryKeys?.(event) };
        groups.push(matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] });
        hooks[event] = groups;
      }
      return { ...settings, hooks };
    },
    removeEntries: (settings, isOurs) =>
      editHookLists(settings, (groups) => groups.flatMap((group) => withoutOurs(group, isOurs))),
    commands(settings) {
      if (!isObject(settings['hooks'])) return [];
      const found: SettingsCommand[] = [];
      for (const [event, value] of Object.entries(settings['hooks'])) {
        if (!Array.isArray(value)) continue;
        for (const group of value) {
          for (const hook of hooksOf(group)) {
            if (typeof hook['command'] !== 'string') continue;
            const timeout = hook['timeout'];
            found.push({
              agentEvent: event,
              command: hook['command'],
              ...(typeof timeout === 'number'
                ? { timeoutSeconds: options.timeoutUnit === 'seconds' ? timeout : timeout / 1000 }
                : {}),
            });
          }
        }
      }
      return found;
    },
  };
}

// A group without Hookline's hooks; dropped when nothing else was in it.
function withoutOurs(group: unknown, isOurs: (command: string) => boolean): unknown[] {
  if (!isObject(group) || !Array.isArray(group['hooks'])) return [group];
  const kept = group['hooks'].filter(
    (hook: unknown) => !(isObject(hook) && typeof hook['command'] === 'string' && isOurs(hook['command'])),
  );
  if (kept.length === group['hooks'].length) return [group];
  return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
}

function groupCommands(groups: readonly unknown[]): string[] {
  return groups.flatMap((group) =>
    hooksOf(group).flatMap((hook) => (typeof hook['command'] === 'string' ? [hook['command']] : [])),
  );
}

function hooksOf(group: unknown): Json[] {
  if (!isObject(group) || !Array.isArray(group['hooks'])) return [];
  return group['hooks'].filter(isObject);
}

function objectOr(value: unknown): Json {
  return isObject(value) ? value : {};
}
