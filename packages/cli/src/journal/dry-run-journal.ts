import type { Journal } from '@hookline/core';
import { defineJournal } from '@hookline/core/plugin';
import { CliError } from '../cli-error.ts';

/**
 * A journal for engines that run nothing (`explain`, `validate`): core refuses durable hooks without
 * a journal, and these commands must neither need nor touch the journal file. It holds no entry.
 */
export function dryRunJournal(command: string): Journal {
  const refuse = (): Promise<never> =>
    Promise.reject(new CliError('HOOKLINE_CLI_DRY_RUN', `hookline ${command} runs no hooks`));
  return defineJournal({
    name: `hookline ${command} (dry run)`,
    scope: `dry-run:${command}`,
    doRecord: refuse,
    doClaim: async () => undefined,
    doRenew: async () => false,
    doComplete: async () => false,
    doRelease: async () => false,
    doDeadLetter: async () => false,
    list: async () => [],
  });
}
