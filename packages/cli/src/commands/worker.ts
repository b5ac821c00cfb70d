import process from 'node:process';
import type { Journal, Preset } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { worker } from '../command-specs.ts';
import type { CliIo } from '../cli-io.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { chooseJournal } from '../journal/journal-path.ts';
import { oldestAgeMs, readJournalStats } from '../journal/journal-stats.ts';
import { formatAge } from '../output/format-age.ts';
import { printWarnings } from '../print-warnings.ts';

/** `hookline worker`: claims and runs durable entries until a signal stops it. */
export const workerCommand = {
  async run({ values, setup }, io) {
    const concurrency = wholeNumber(values.concurrency, '--concurrency', 4, 1);
    const graceMs = wholeNumber(values['grace-ms'], '--grace-ms', 30_000, 0);
    const pollMs = wholeNumber(values['poll-ms'], '--poll-ms', 1_000, 10);
    const json = values.json === true;
    const choice = chooseJournal(values.journal, io, setup.config);
    const { engine, journal } = await createCliEngine(setup, {
      io,
      journal: { ...choice, run: 'emitter' },
      resumeAtStart: false,
      concurrency,
    });
    if (journal === undefined) {
      await engine.close();
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `The config has no durable hook, so a worker has nothing to run: set durable = true on the hooks to deliver${durableByDefault(setup.presets.all)}.`,
      );
    }

    const counts = { claimed: 0, ran: 0, failed: 0, released: 0, refused: 0 };
    const say = (event: Record<string, unknown>): void => {
      if (json) io.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);
    };
    const stop = new AbortController();
    let stoppedBy: string | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stoppedBy !== undefined) process.exit(signal === 'SIGINT' ? 130 : 143);
      stoppedBy = signal;
      stop.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    const progress = startProgress(io, counts, journal, stop.signal);
    let lastError = '';
    const working = engine.resume({
      signal: stop.signal,
      concurrency,
      pollMs,
      onClaim: (entry) => {
        counts.claimed++;
        lastError = '';
        say({ type: 'claimed', id: entry.id, event: entry.event, attempts: entry.attempts });
      },
      onSettled: ({ entry, outcome, error }) => {
        if (outcome === undefined) {
          counts.released++;
          say({ type: 'released', id: entry.id, event: entry.event, reason: error });
          return;
        }
        const failed = outcome.hooks.some((hook) => hook.status === 'failed' || hook.status === 'timed_out');
        counts.ran++;
        if (failed) counts.failed++;
        say({
          type: 'ran',
          id: entry.id,
          event: entry.event,
          status: failed ? 'failed' : 'ok',
          hooks: outcome.hooks.map((hook) => ({ name: hook.name, status: hook.status })),
        });
      },
      // Forged, edited or unsealed: never run, and the people watching the worker must hear of it.
      onRefused: ({ entry, reason }) => {
        counts.refused++;
        say({ type: 'refused', id: entry.id, event: entry.event, reason });
        if (!json)
          printWarnings([`journal entry ${entry.id} (${entry.event}) was dead-lettered, not run — ${reason}`], io);
      },
      // The journal failed (database restarting, network cut): say so once, and go on trying.
      onJournalError: (error) => {
        const message = error instanceof Error ? error.message : String(error);
        if (message === lastError) return;
        lastError = message;
        say({ type: 'error', message });
        if (!json) printWarnings([`the journal failed; trying again every ${pollMs} ms: ${message}`], io);
      },
    });
    await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
    // Claiming has stopped; in-flight hooks get the grace period, then close() stops them and releases their entries.
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      working.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
    ]);
    clearTimeout(timer);
    await engine.close();
    await working;
    progress.stop();
    const { refused, ...done } = counts;
    say({ type: 'stopped', signal: stoppedBy, in_time: inTime, ...done, ...(refused === 0 ? {} : { refused }) });
    io.stderr.write(
      `hookline worker: stopped (${stoppedBy}): claimed ${counts.claimed}, ran ${counts.ran}, failed ${counts.failed}, released ${counts.released}${counts.refused === 0 ? '' : `, refused ${counts.refused}`}\n`,
    );
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    return 0;
  },
} satisfies CommandModule<typeof worker>;

// The progress line: on a terminal rewritten in place every second, elsewhere a line every 10 s.
function startProgress(
  io: CliIo,
  counts: Readonly<Record<'claimed' | 'ran' | 'failed' | 'released', number>>,
  journal: Journal,
  signal: AbortSignal,
): { stop(): void } {
  const tty = io.stderr.isTTY === true;
  let backlog = '';
  let busy = false;
  const draw = async (): Promise<void> => {
    if (busy || signal.aborted) return;
    busy = true;
    try {
      const stats = await readJournalStats(journal);
      const age = oldestAgeMs(stats);
      backlog = `, backlog ${stats.pending}, oldest ${age === undefined ? '—' : formatAge(age)}`;
    } catch {
      backlog = ', backlog unknown (the journal failed)';
    } finally {
      busy = false;
    }
    const line = `hookline worker: claimed ${counts.claimed}, ran ${counts.ran}, failed ${counts.failed}, released ${counts.released}${backlog}`;
    io.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
  };
  const timer = setInterval(() => void draw(), tty ? 1_000 : 10_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (tty) io.stderr.write('\r\x1b[2K');
    },
  };
}

function wholeNumber(value: string | undefined, name: string, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum)
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `${name} needs a whole number of at least ${minimum}, got ${JSON.stringify(value)}.`,
    );
  return number;
}

// The presets whose events are durable unless a hook says otherwise, for the hint.
function durableByDefault(presets: readonly Preset[]): string {
  const names = presets
    .filter((preset) => preset.events.some((event) => event.durable === true))
    .map((preset) => `"${preset.name}"`);
  return names.length === 0 ? '' : ` (the hooks of preset ${names.join(', ')} are durable by default)`;
}
