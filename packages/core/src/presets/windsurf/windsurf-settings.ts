import type { AgentSettings, SettingsCommand } from '../agent-adapter.ts';
import { isObject } from '../canonical-call.ts';

/**
 * Hookline's entries in Windsurf's `hooks.json` (its hooks reference): `{"hooks": {"<event>":
 * [{"command": "…", "show_output": true}]}}` — one flat entry per event; `show_output` so that the user
 * sees the bridge's notes. The reference gives entries no timeout. Every other entry and key is kept.
 */
export function windsurfSettings(events: readonly string[]): AgentSettings {
  return {
    project: { under: 'project', path: '.windsurf/hooks.json' },
    user: { under: 'home', path: '.codeium/windsurf/hooks.json' },
    events,
    entriesTakeTimeout: false,
    addEntries(settings, entry, chosen) {
      const hooks: Record<string, unknown> = { ...(isObject(settings['hooks']) ? settings['hooks'] : {}) };
      for (const event of events.filter((candidate) => chosen.includes(candidate))) {
        const list = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
        const command = entry.command(event);
        if (list.some((item) => isObject(item) && item['command'] === command)) continue;
        list.push({ command, show_output: true });
        hooks[event] = list;
      }
      return { ...settings, hooks };
    },
    removeEntries(settings, isOurs) {
      if (!isObject(settings['hooks'])) return { ...settings };
      const hooks: Record<string, unknown> = {};
      for (const [event, value] of Object.entries(settings['hooks'])) {
        if (!Array.isArray(value)) {
          hooks[event] = value;
          continue;
        }
        const kept = value.filter(
          (item: unknown) => !(isObject(item) && typeof item['command'] === 'string' && isOurs(item['command'])),
        );
        if (kept.length > 0) hooks[event] = kept;
      }
      const { hooks: _dropped, ...rest } = settings;
      return Object.keys(hooks).length === 0 ? rest : { ...rest, hooks };
    },
    commands(settings) {
      if (!isObject(settings['hooks'])) return [];
      return Object.entries(settings['hooks']).flatMap(([event, value]): SettingsCommand[] =>
        Array.isArray(value)
          ? value.flatMap((item: unknown) =>
              isObject(item) && typeof item['command'] === 'string'
                ? [{ agentEvent: event, command: item['command'] }]
                : [],
            )
          : [],
      );
    },
  };
}
