import { messageOf, type HookConfig, type Journal } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { JournalChoice } from './journal-path.ts';

/**
 * The journal for a config that has durable hooks (every `task` point, `durable = true` elsewhere),
 * or for a command that works on the journal itself (`always`): `sqliteJournal({ path })`, or
 * `postgresJournal({ url })` for a postgres:// location. Neither opens anything before first use,
 * and a config without durable hooks gets none — the journal's package is not even imported.
 */
export async function loadJournal(
  config: HookConfig,
  choice: JournalChoice,
  always = false,
): Promise<Journal | undefined> {
  if (!always && !config.hooks.some((hook) => hook.durable)) return undefined;
  const settings = choice.maxAttempts === undefined ? {} : { maxAttempts: choice.maxAttempts };
  if (choice.kind === 'postgres') {
    let module: typeof import('@hookline/journal-postgres');
    try {
      module = await import('@hookline/journal-postgres');
    } catch (error) {
      throw new CliError(
        'HOOKLINE_CLI_PLUGIN_MISSING',
        `The journal is a PostgreSQL URL, but @hookline/journal-postgres is not installed (${messageOf(error)}). Install it next to @hookline/cli (pnpm add @hookline/journal-postgres), or unset HOOKLINE_JOURNAL / [journal] url to use the SQLite journal.`,
        { cause: error },
      );
    }
    return module.postgresJournal({ url: choice.location, ...settings, ...postgresLockTimeout(choice) });
  }
  let module: typeof import('@hookline/journal-sqlite');
  try {
    module = await import('@hookline/journal-sqlite');
  } catch (error) {
    throw new CliError(
      'HOOKLINE_CLI_PLUGIN_BROKEN',
      `@hookline/journal-sqlite, which durable hooks need, failed to load: ${messageOf(error)}. Reinstall @hookline/cli (Node ≥ 22.19 is needed for node:sqlite).`,
      { cause: error },
    );
  }
  return module.sqliteJournal({
    path: choice.location,
    ...settings,
    ...(choice.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: choice.busyTimeoutMs }),
  });
}

/**
 * `[journal] busy_timeout_ms` for PostgreSQL: the server's `lock_timeout`. 0 means "do not wait" in
 * the config, as for SQLite, but "wait for ever" to PostgreSQL (and `lockTimeoutMs: 0` sends nothing),
 * so it becomes the shortest wait PostgreSQL has, 1 ms.
 */
function postgresLockTimeout(choice: JournalChoice): { lockTimeoutMs?: number } {
  if (choice.busyTimeoutMs === undefined) return {};
  return { lockTimeoutMs: Math.max(1, choice.busyTimeoutMs) };
}
