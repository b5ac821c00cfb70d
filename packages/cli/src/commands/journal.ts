import {
  journalEntryState,
  messageOf,
  purgeDeadLetters,
  retryDeadLetters,
  type Journal,
  type JournalEntry,
} from '@hookline/core';
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
import { parseTime } from '../journal/parse-time.ts';
import type { CliIo } from '../cli-io.ts';

const USAGE =
  'Usage: hookline journal ls [--dead] | stats | retry ID [--trust] | retry --since DATE | --endpoint URL | purge --before DATE (see hookline journal --help).';

/** `hookline journal`: what the journal holds, and ways to retry and purge dead letters. */
export const journalCommand = {
  async run({ values, positionals: { action, ID: id } }, io) {
    const bulk = values.since !== undefined || values.endpoint !== undefined;
    if (id !== undefined && (action !== 'retry' || bulk)) throw new CliError('HOOKLINE_CLI_USAGE', USAGE);
    if (action === 'retry' && id === undefined && !bulk)
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `hookline journal retry needs an entry ID, or --since DATE and/or --endpoint URL. ${USAGE}`,
      );
    if (bulk && action !== 'retry')
      throw new CliError('HOOKLINE_CLI_USAGE', `--since and --endpoint go with retry. ${USAGE}`);
    if ((action === 'purge') !== (values.before !== undefined))
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `purge needs --before DATE, and --before goes with purge only. ${USAGE}`,
      );
    if (values.dead === true && action !== 'ls')
      throw new CliError('HOOKLINE_CLI_USAGE', `--dead goes with ls. ${USAGE}`);
    if (values.trust === true && (action !== 'retry' || id === undefined))
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `--trust goes with retry ID only: vouch for entries one by one. ${USAGE}`,
      );
    // Dates are checked before the journal is opened.
    const since = values.since === undefined ? undefined : parseTime(values.since, '--since');
    const before = values.before === undefined ? undefined : parseTime(values.before, '--before');
    const setup = await loadSetup({ configFiles: values.config, preset: values.preset, cwd: io.cwd, env: io.env });
    printSetupWarnings(setup, io);
    const journal = (await loadJournal(setup.config, chooseJournal(values.journal, io, setup.config), true))!;
    const json = values.json === true;
    try {
      if (action === 'purge') {
        const purged = await purgeDeadLetters(journal, before!);
        io.stdout.write(
          json
            ? `${JSON.stringify({ purged })}\n`
            : `purged ${purged} dead letter${purged === 1 ? '' : 's'} dead-lettered before ${new Date(before!).toISOString()}\n`,
        );
        return 0;
      }
      if (action === 'retry' && id === undefined)
        return await retryMany(
          journal,
          {
            ...(since === undefined ? {} : { since }),
            ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
          },
          json,
          io,
        );
      if (action === 'retry') {
        if (journal.doRetry === undefined)
          throw new CliError('HOOKLINE_CLI_USAGE', `${journal.name} has no dead letters to retry.`);
        const entry = (await journal.list({ state: 'dead-lettered' })).find((candidate) => candidate.id === id);
        let key;
        try {
          key = createJournalSeal(loadJournalKey(io.env).bytes);
        } catch (error) {
          throw new CliError(
            'HOOKLINE_CLI_USAGE',
            `Cannot check journal entries without the journal key: ${messageOf(error)}`,
            { cause: error },
          );
        }
        // An entry whose seal does not verify would only be refused again: only a person can vouch for it.
        const verdict = entry === undefined ? 'valid' : await key.verifyEntry(journal.scope, entry);
        if (verdict !== 'valid' && values.trust !== true) {
          throw new CliError(
            'HOOKLINE_CLI_USAGE',
            `Entry ${id} ${verdict === 'missing' ? 'has no seal' : 'has a seal that does not verify with your journal key'}: it was written before entries were sealed, or by something other than your Hookline, and its hooks would run with its context as if you had emitted it. Check its context (hookline journal ls --json); if you vouch for it, run: hookline journal retry ${id} --trust.`,
          );
        }
        const trusted =
          verdict !== 'valid' && entry !== undefined ? { seal: await key.sealEntry(journal.scope, entry) } : undefined;
        if (!(await journal.doRetry(id!, trusted))) {
          throw new CliError(
            'HOOKLINE_CLI_USAGE',
            `No dead-lettered entry ${JSON.stringify(id)} in ${journal.name}; hookline journal ls shows the entries and their states.`,
          );
        }
        io.stdout.write(
          json
            ? `${JSON.stringify({ retried: id, ...(trusted === undefined ? {} : { trusted: true }) })}\n`
            : `entry ${id} is pending again${trusted === undefined ? '' : ', sealed with your key (its recorded process groups were forgotten)'}\n`,
        );
        return 0;
      }
      if (action === 'stats') {
        const stats = await readJournalStats(journal);
        const age = oldestAgeMs(stats);
        if (json)
          io.stdout.write(
            `${JSON.stringify({ pending: stats.pending, leased: stats.leased, dead_lettered: stats.deadLettered, oldest_age_ms: age ?? null, highest_attempts: stats.highestAttempts })}\n`,
          );
        else
          io.stdout.write(
            `pending ${stats.pending}, leased ${stats.leased}, dead-lettered ${stats.deadLettered}, oldest ${age === undefined ? '—' : formatAge(age)}, most attempts ${stats.highestAttempts}\n`,
          );
        return 0;
      }
      const entries = await journal.list(values.dead === true ? { state: 'dead-lettered' } : {});
      // Leases and ages by the journal's clock where it tells it (PostgreSQL's server), else this machine's.
      const now = journal.stats === undefined ? Date.now() : (await journal.stats()).now;
      if (json) {
        io.stdout.write(
          `${JSON.stringify(entries.map((entry) => ({ ...entry, state: journalEntryState(entry, now) })))}\n`,
        );
        return 0;
      }
      if (entries.length === 0) {
        io.stdout.write(values.dead === true ? 'no dead letters\n' : 'the journal is empty\n');
        return 0;
      }
      const style = createStyle(io.stdout, io.env);
      const rows = entries.map((entry) => [
        { text: entry.id },
        { text: entry.event },
        { text: journalEntryState(entry, now) },
        {
          text:
            journalEntryState(entry, now) === 'leased'
              ? `${entry.owner} until ${new Date(entry.leaseExpiresAt ?? 0).toISOString()}`
              : '—',
        },
        { text: String(entry.attempts) },
        { text: formatAge(Math.max(0, now - entry.createdAt)) },
        { text: deliverySummary(entry) },
        { text: escapeControl(entry.lastError ?? '—') },
      ]);
      io.stdout.write(
        `${formatTable(['id', 'event', 'state', 'held by', 'attempts', 'age', 'deliveries', 'last error'], rows, style)}\n`,
      );
      return 0;
    } finally {
      await journal.doClose?.();
    }
  },
} satisfies CommandModule<typeof journalSpec>;

// `hookline journal retry --since DATE --endpoint URL`: every matching dead letter whose seal verifies.
async function retryMany(
  journal: Journal,
  selection: { since?: number; endpoint?: string },
  json: boolean,
  io: CliIo,
): Promise<number> {
  let key;
  try {
    key = createJournalSeal(loadJournalKey(io.env).bytes);
  } catch (error) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `Cannot check journal entries without the journal key: ${messageOf(error)}`,
      { cause: error },
    );
  }
  const done = await retryDeadLetters(journal, selection, key);
  if (json) {
    io.stdout.write(`${JSON.stringify({ retried: done.retried, refused: done.refused, reenabled: done.reenabled })}\n`);
    return 0;
  }
  const what = [
    selection.since === undefined ? '' : `dead-lettered since ${new Date(selection.since).toISOString()}`,
    selection.endpoint === undefined ? '' : `with an attempt to ${selection.endpoint}`,
  ]
    .filter((part) => part !== '')
    .join(' and ');
  if (done.reenabled) io.stdout.write(`${selection.endpoint} is enabled again\n`);
  io.stdout.write(
    `${done.retried.length} dead letter${done.retried.length === 1 ? '' : 's'} ${what} pending again${done.retried.length === 0 ? '' : `: ${done.retried.join(', ')}`}\n`,
  );
  for (const { id, reason } of done.refused)
    io.stderr.write(
      `hookline: entry ${id} was left dead-lettered: ${reason}; check its context (hookline journal ls --json) and retry it alone with --trust if you vouch for it\n`,
    );
  return 0;
}

// The delivery attempts of an entry with a retry policy: how many, and how the last one ended.
function deliverySummary(entry: JournalEntry): string {
  const attempts = entry.deliveries ?? [];
  const last = attempts.at(-1);
  if (last === undefined) return '—';
  const how = last.httpStatus === undefined ? last.status : String(last.httpStatus);
  return `${attempts.length}, last ${how} ${last.outcome} ${new Date(last.at).toISOString()}`;
}

// A last error may quote a hook's output: no control character reaches the terminal.
function escapeControl(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
