import { journalEntryState, messageOf } from '@hookline/core';
import { createJournalSeal } from '@hookline/core/plugin';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { journal as journalSpec } from '../command-specs.ts';
import { loadSetup } from '../config/load-setup.ts';
import { chooseJournal } from '../journal/journal-path.ts';
import { printSetupWarnings } from '../print-warnings.ts';
import { oldestAgeMs, readJournalStats } from '../journal/journal-stats.ts';
import { loadJournal } from '../journal/load-journal.ts';
import { loadJournalKey } from '../journal/journal-key.ts';
import { formatAge } from '../output/format-age.ts';
import { formatTable } from '../output/format-table.ts';
import { createStyle } from '../output/style.ts';

/** `hookline journal`: what the journal holds, and a way to retry a dead letter. */
export const journalCommand = {
  async run({ values, positionals: { action, ID: id } }, io) {
    if ((action === 'retry') !== (id !== undefined)) {
      throw new CliError('HOOKLINE_CLI_USAGE', 'Usage: hookline journal ls | hookline journal stats | hookline journal retry ID (see hookline journal --help).');
    }
    const setup = await loadSetup({ configFiles: values.config, preset: values.preset, cwd: io.cwd, env: io.env });
    printSetupWarnings(setup, io);
    const journal = (await loadJournal(setup.config, chooseJournal(values.journal, io, setup.config), true))!;
    const json = values.json === true;
    try {
      if (action === 'retry') {
        if (journal.doRetry === undefined) throw new CliError('HOOKLINE_CLI_USAGE', `${journal.name} has no dead letters to retry.`);
        const entry = (await journal.list({ state: 'dead-lettered' })).find((candidate) => candidate.id === id);
        let key;
        try {
          key = createJournalSeal(loadJournalKey(io.env).bytes);
        } catch (error) {
          throw new CliError('HOOKLINE_CLI_USAGE', `Cannot check journal entries without the journal key: ${messageOf(error)}`, { cause: error });
        }
        // An entry whose seal does not verify would only be refused again: only a person can vouch for it.
        const verdict = entry === undefined ? 'valid' : await key.verifyEntry(journal.scope, entry);
        if (verdict !== 'valid' && values.trust !== true) {
          throw new CliError(
            'HOOKLINE_CLI_USAGE',
            `Entry ${id} ${verdict === 'missing' ? 'has no seal' : "has a seal that does not verify with your journal key"}: it was written before entries were sealed, or by something other than your Hookline, and its hooks would run with its context as if you had emitted it. Check its context (hookline journal ls --json); if you vouch for it, run: hookline journal retry ${id} --trust.`,
          );
        }
        const trusted = verdict !== 'valid' && entry !== undefined ? { seal: await key.sealEntry(journal.scope, entry) } : undefined;
        if (!(await journal.doRetry(id!, trusted))) {
          throw new CliError('HOOKLINE_CLI_USAGE', `No dead-lettered entry ${JSON.stringify(id)} in ${journal.name}; hookline journal ls shows the entries and their states.`);
        }
        io.stdout.write(json ? `${JSON.stringify({ retried: id, ...(trusted === undefined ? {} : { trusted: true }) })}\n` : `entry ${id} is pending again${trusted === undefined ? '' : ', sealed with your key (its recorded process groups were forgotten)'}\n`);
        return 0;
      }
      if (action === 'stats') {
        const stats = await readJournalStats(journal);
        const age = oldestAgeMs(stats);
        if (json) io.stdout.write(`${JSON.stringify({ pending: stats.pending, leased: stats.leased, dead_lettered: stats.deadLettered, oldest_age_ms: age ?? null, highest_attempts: stats.highestAttempts })}\n`);
        else io.stdout.write(`pending ${stats.pending}, leased ${stats.leased}, dead-lettered ${stats.deadLettered}, oldest ${age === undefined ? '—' : formatAge(age)}, most attempts ${stats.highestAttempts}\n`);
        return 0;
      }
      const entries = await journal.list();
      // Leases and ages by the journal's clock where it tells it (PostgreSQL's server), else this machine's.
      const now = journal.stats === undefined ? Date.now() : (await journal.stats()).now;
      if (json) {
        io.stdout.write(`${JSON.stringify(entries.map((entry) => ({ ...entry, state: journalEntryState(entry, now) })))}\n`);
        return 0;
      }
      if (entries.length === 0) {
        io.stdout.write('the journal is empty\n');
        return 0;
      }
      const style = createStyle(io.stdout, io.env);
      const rows = entries.map((entry) => [
        { text: entry.id },
        { text: entry.event },
        { text: journalEntryState(entry, now) },
        { text: journalEntryState(entry, now) === 'leased' ? `${entry.owner} until ${new Date(entry.leaseExpiresAt ?? 0).toISOString()}` : '—' },
        { text: String(entry.attempts) },
        { text: formatAge(Math.max(0, now - entry.createdAt)) },
        { text: escapeControl(entry.lastError ?? '—') },
      ]);
      io.stdout.write(`${formatTable(['id', 'event', 'state', 'held by', 'attempts', 'age', 'last error'], rows, style)}\n`);
      return 0;
    } finally {
      await journal.doClose?.();
    }
  },
} satisfies CommandModule<typeof journalSpec>;

// A last error may quote a hook's output: no control character reaches the terminal.
function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
