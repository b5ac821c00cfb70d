import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';

/** Where durable hooks are journaled when neither `--journal` nor `HOOKLINE_JOURNAL` says: next to the project. */
export const DEFAULT_JOURNAL_PATH = '.hookline/journal.db';

/**
 * The journal file of `emit` and `run`: `--journal FILE`, else `$HOOKLINE_JOURNAL`, else
 * `.hookline/journal.db` — relative paths against the working directory, so every command started in
 * one project shares one journal (and a killed one's entries are found by the next).
 */
export function journalPath(option: string | undefined, io: Pick<CliIo, 'cwd' | 'env'>): string {
  if (option === '') throw new CliError('HOOKLINE_CLI_USAGE', '--journal needs a file path, e.g. --journal .hookline/journal.db.');
  const chosen = option ?? (io.env['HOOKLINE_JOURNAL'] || DEFAULT_JOURNAL_PATH);
  return resolve(io.cwd, chosen);
}
