import type { AgentSettings, SettingsCommand } from '../agent-adapter.ts';
import { isObject } from '../canonical-call.ts';

/**
 * Hookline's entries in Cursor's `hooks.json`: `{"version": 1, "hooks": {"<event>": [{"command": "…",
 * "timeout": N, "failClosed": true}]}}` — one flat entry per event (timeouts in seconds); guards get
 * `failClosed: true` so that a bridge that cannot start refuses the call. `version` is set when the
 * file has none; every other entry and key is kept.
 */
export function cursorSettings(events: readonly string[], guards: ReadonlySet<string>): AgentSettings {
  return {
    project: { under: 'project', path: '.cursor/hooks.json' },
    user: { under: 'home', path: '.cursor/hooks.json' },
    events,
    addEntries(settings, entry, chosen) {
      const hooks: Record<string, unknown> = { ...(isObject(settings['hooks']) ? settings['hooks'] : {}) };
      for (const event of events.filter((candidate) => chosen.includes(candidate))) {
        const list = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
        const command = entry.command(event);
        if (list.some((item) => isObject(item) && item['command'] === command)) continue;
        list.push({ command, timeout: entry.timeoutSeconds, ...(guards.has(event) ? { failClosed: true } : {}) });
        hooks[event] = list;
      }
      return { version: 1, ...settings, hooks };
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
                ? [
                    {
                      agentEvent: event,
                      command: item['command'],
                      ...(typeof item['timeout'] === 'number' ? { timeoutSeconds: item['timeout'] } : {}),
                    },
                  ]
                : [],
            )
          : [],
      );
    },
    problems: (settings) =>
      settings['version'] !== undefined && settings['version'] !== 1
        ? [`"version" is ${JSON.stringify(settings['version'])}; Cursor reads hooks.json of version 1`]
        : [],
  };
}
