import type { AgentSettings } from '../agent-adapter.ts';
import {
  commandOf,
  flatCommands,
  withFlatEntries,
  withoutFlatEntries,
  type FlatEntries,
} from '../settings-hook-lists.ts';

/**
 * Hookline's entries in Cursor's `hooks.json`: `{"version": 1, "hooks": {"<event>": [{"command": "…",
 * "timeout": N, "failClosed": true}]}}` — one flat entry per event (timeouts in seconds); guards get
 * `failClosed: true` so that a bridge that cannot start refuses the call. `version` is set when the
 * file has none; every other entry and key is kept.
 */
export function cursorSettings(events: readonly string[], guards: ReadonlySet<string>): AgentSettings {
  const flat: FlatEntries = {
    lineOf: commandOf,
    ours: (event, entry) => {
      const line = entry.command(event);
      return {
        line,
        item: { command: line, timeout: entry.timeoutSeconds, ...(guards.has(event) ? { failClosed: true } : {}) },
      };
    },
    versioned: true,
  };
  return {
    project: { under: 'project', path: '.cursor/hooks.json' },
    user: { under: 'home', path: '.cursor/hooks.json' },
    events,
    addEntries: (settings, entry, chosen) => withFlatEntries(flat, settings, entry, events, chosen),
    removeEntries: (settings, isOurs) => withoutFlatEntries(flat, settings, isOurs),
    commands: (settings) =>
      flatCommands(settings, (event, item) => {
        const line = commandOf(item);
        if (line === undefined) return [];
        const timeout = item['timeout'];
        return [
          { agentEvent: event, command: line, ...(typeof timeout === 'number' ? { timeoutSeconds: timeout } : {}) },
        ];
      }),
    problems: (settings) =>
      settings['version'] !== undefined && settings['version'] !== 1
        ? [`"version" is ${JSON.stringify(settings['version'])}; Cursor reads hooks.json of version 1`]
        : [],
  };
}
