import { resolve } from 'node:path';
import type { HookConfig } from '@hookline/core';
import type { JournalSettings } from '@hookline/core/plugin';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';

/** Where durable hooks are journaled when neither `--journal`, `HOOKLINE_JOURNAL` nor `[journal] url` says: next to the project. */
export const DEFAULT_JOURNAL_PATH = '.hookline/journal.db';

/** The journal a command uses, and how durable hooks are run with it. */
export interface JournalChoice {
  /** An absolute SQLite file path, or a `postgres://` URL (with its password, if any: never print it). */
  readonly location: string;
  readonly kind: 'sqlite' | 'postgres';
  /** `[journal] run`: `emitter` (default) runs durable hooks where they are emitted; `workers` only records them. */
  readonly run: 'emitter' | 'workers';
  readonly maxAttempts?: number;
  readonly leaseMs?: number;
  /** `[journal] busy_timeout_ms`: the journal's total wait for another process's lock (SQLite's file lock, PostgreSQL's `lock_timeout`). */
  readonly busyTimeoutMs?: number;
}

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

/**
 * The journal of a command: `--journal FILE|URL`, else `$HOOKLINE_JOURNAL`, else `[journal] url`,
 * else `.hookline/journal.db`. A `postgres://` (or `postgresql://`) URL selects the PostgreSQL
 * journal; anything else is an SQLite file, relative to the working directory, so every command
 * started in one project shares one journal (and a killed one's entries are found by the next).
 */
export function chooseJournal(
  option: string | undefined,
  io: Pick<CliIo, 'cwd' | 'env'>,
  config?: HookConfig,
): JournalChoice {
  if (option === '')
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      '--journal needs a file path or a postgres:// URL, e.g. --journal .hookline/journal.db.',
    );
  // `[journal]`, validated by the loader (core's journalSettingsTable).
  const table = (config?.settings['journal'] ?? {}) as JournalSettings;
  const configured = table.url;
  const chosen = option ?? (io.env['HOOKLINE_JOURNAL'] || configured || DEFAULT_JOURNAL_PATH);
  const postgres = POSTGRES_URL.test(chosen);
  return {
    location: postgres ? chosen : resolve(io.cwd, chosen),
    kind: postgres ? 'postgres' : 'sqlite',
    run: table.run ?? 'emitter',
    ...(table.max_attempts === undefined ? {} : { maxAttempts: table.max_attempts }),
    ...(table.lease_ms === undefined ? {} : { leaseMs: table.lease_ms }),
    ...(table.busy_timeout_ms === undefined ? {} : { busyTimeoutMs: table.busy_timeout_ms }),
  };
}
