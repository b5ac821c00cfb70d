import type { HookConfig, Journal } from '@hookline/core';
import { messageOf } from '@hookline/core';
import { CliError } from '../cli-error.ts';

/**
 * The journal for a config that has durable hooks (every `task` point, `durable = true` elsewhere):
 * `sqliteJournal({ path })`, which opens the file — making it and its folder — on first use. A config
 * without durable hooks gets none, and @hookline/journal-sqlite (with node:sqlite) is not even imported.
 */
export async function loadJournal(config: HookConfig, path: string): Promise<Journal | undefined> {
  if (!config.hooks.some((hook) => hook.durable)) return undefined;
  let module: typeof import('@hookline/journal-sqlite');
  try {
    module = await import('@hookline/journal-sqlite');
  } catch (error) {
    const reason = messageOf(error);
    throw new CliError('HOOKLINE_CLI_PLUGIN_BROKEN', `@hookline/journal-sqlite, which durable hooks need, failed to load: ${reason}. Reinstall @hookline/cli (Node ≥ 22.19 is needed for node:sqlite).`, { cause: error });
  }
  return module.sqliteJournal({ path });
}
