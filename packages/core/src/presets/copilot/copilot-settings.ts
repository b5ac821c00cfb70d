import type { AgentSettings, SettingsCommand } from '../agent-adapter.ts';
import { isObject } from '../canonical-call.ts';
import { flatCommands, withFlatEntries, withoutFlatEntries, type FlatEntries } from '../settings-hook-lists.ts';

/**
 * Hookline's entries in a Copilot hooks file of its own (`.github/hooks/hookline.json`, the user's
 * `~/.copilot/hooks/hookline.json`; Copilot loads every `*.json` there): `{"version": 1, "hooks":
 * {"<event>": [{"type": "command", "bash": "… --event <event>", "timeoutSec": N}]}}`. Copilot's payload
 * does not name its event, so each entry's command line does (`--event`). `version` is set when the
 * file has none; every other entry and key is kept.
 */
export function copilotSettings(events: readonly string[]): AgentSettings {
  const flat: FlatEntries = {
    lineOf,
    ours: (event, entry) => {
      const line = `${entry.command(event)} --event ${event}`;
      return { line, item: { type: 'command', bash: line, timeoutSec: entry.timeoutSeconds } };
    },
    versioned: true,
  };
  return {
    project: { under: 'project', path: '.github/hooks/hookline.json' },
    user: { under: 'home', path: '.copilot/hooks/hookline.json' },
    events,
    addEntries: (settings, entry, chosen) => withFlatEntries(flat, settings, entry, events, chosen),
    removeEntries: (settings, isOurs) => withoutFlatEntries(flat, settings, isOurs),
    commands: (settings) => flatCommands(settings, entryCommands),
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
