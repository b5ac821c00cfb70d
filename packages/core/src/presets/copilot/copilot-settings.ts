import type { AgentSettings, SettingsCommand } from '../agent-adapter.ts';
import { isObject } from '../canonical-call.ts';

/**
 * Hookline's entries in a Copilot hooks file of its own (`.github/hooks/hookline.json`, the user's
 * `~/.copilot/hooks/hookline.json`; Copilot loads every `*.json` there): `{"version": 1, "hooks":
 * {"<event>": [{"type": "command", "bash": "… --event <event>", "timeoutSec": N}]}}`. Copilot's payload
 * does not name its event, so each entry's command line does (`--event`). `version` is set when the
 * file has none; every other entry and key is kept.
 */
export function copilotSettings(events: readonly string[]): AgentSettings {
  return {
    project: { under: 'project', path: '.github/hooks/hookline.json' },
    user: { under: 'home', path: '.copilot/hooks/hookline.json' },
    events,
    addEntries(settings, entry, chosen) {
      const hooks: Record<string, unknown> = { ...(isObject(settings['hooks']) ? settings['hooks'] : {}) };
      for (const event of events.filter((candidate) => chosen.includes(candidate))) {
        const list = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
        const command = `${entry.command(event)} --event ${event}`;
        if (list.some((item) => isObject(item) && lineOf(item) === command)) continue;
        list.push({ type: 'command', bash: command, timeoutSec: entry.timeoutSeconds });
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
        const kept = value.filter((item: unknown) => {
          const line = isObject(item) ? lineOf(item) : undefined;
          return line === undefined || !isOurs(line);
        });
        if (kept.length > 0) hooks[event] = kept;
      }
      const { hooks: _dropped, ...rest } = settings;
      return Object.keys(hooks).length === 0 ? rest : { ...rest, hooks };
    },
    commands(settings) {
      if (!isObject(settings['hooks'])) return [];
      return Object.entries(settings['hooks']).flatMap(([event, value]): SettingsCommand[] =>
        Array.isArray(value)
          ? value.flatMap((item: unknown) => (isObject(item) ? entryCommands(event, item) : []))
          : [],
      );
    },
    problems(settings) {
      const found: string[] = [];
      if (settings['version'] !== undefined && settings['version'] !== 1)
        found.push(`"version" is ${JSON.stringify(settings['version'])}; Copilot reads hooks files of version 1`);
      if (settings['disableAllHooks'] === true)
        found.push('"disableAllHooks": true — Copilot runs no hook of this file; remove it');
      return found;
    },
  };
}

// The command line of a flat entry: `bash`, or `command`, Copilot's cross-platform alias for it.
function lineOf(item: Readonly<Record<string, unknown>>): string | undefined {
  const line = item['bash'] ?? item['command'];
  return typeof line === 'string' ? line : undefined;
}

// A flat entry, or a group in Claude Code's nested form, which Copilot reads too.
function entryCommands(event: string, item: Readonly<Record<string, unknown>>): SettingsCommand[] {
  const inner = Array.isArray(item['hooks']) ? (item['hooks'] as unknown[]).filter(isObject) : [item];
  return inner.flatMap((hook) => {
    const line = lineOf(hook);
    const seconds = hook['timeoutSec'] ?? hook['timeout'];
    return line === undefined
      ? []
      : [{ agentEvent: event, command: line, ...(typeof seconds === 'number' ? { timeoutSeconds: seconds } : {}) }];
  });
}
