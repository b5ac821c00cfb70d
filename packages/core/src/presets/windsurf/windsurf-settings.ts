import type { AgentSettings } from '../agent-adapter.ts';
import {
  commandOf,
  flatCommands,
  withFlatEntries,
  withoutFlatEntries,
  type FlatEntries,
} from '../settings-hook-lists.ts';

/**
 * Hookline's entries in Windsurf's `hooks.json` (its hooks reference): `{"hooks": {"<event>":
 * [{"command": "…", "show_output": true}]}}` — one flat entry per event; `show_output` so that the user
 * sees the bridge's notes. The reference gives entries no timeout. Every other entry and key is kept.
 */
export function windsurfSettings(events: readonly string[]): AgentSettings {
  const flat: FlatEntries = {
    lineOf: commandOf,
    ours: (event, entry) => {
      const line = entry.command(event);
      return { line, item: { command: line, show_output: true } };
    },
    versioned: false,
  };
  return {
    project: { under: 'project', path: '.windsurf/hooks.json' },
    user: { under: 'home', path: '.codeium/windsurf/hooks.json' },
    events,
    entriesTakeTimeout: false,
    addEntries: (settings, entry, chosen) => withFlatEntries(flat, settings, entry, events, chosen),
    removeEntries: (settings, isOurs) => withoutFlatEntries(flat, settings, isOurs),
    commands: (settings) =>
      flatCommands(settings, (event, item) => {
        const line = commandOf(item);
        return line === undefined ? [] : [{ agentEvent: event, command: line }];
      }),
  };
}
