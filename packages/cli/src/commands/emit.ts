import process from 'node:process';
import type { CommandModule } from '../command.ts';
import type { emit } from '../command-specs.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { chooseJournal } from '../journal/journal-path.ts';
import { onShutdownSignal, signalExitCode } from '../on-shutdown-signal.ts';
import type { LiveStatus } from '../output/live-status.ts';
import { reportInternalEmit } from '../output/report-internal-emit.ts';
import { createStyle } from '../output/style.ts';
import { printWarnings } from '../print-warnings.ts';

/** `hookline emit`: one event, its hooks run, the settled outcome printed. */
export const emitCommand = {
  async run({ values, positionals: { event }, setup, context }, io) {
    const json = values.json === true;
    // The human output's modules load only for human output: --json is the scripted, hot path.
    const live: LiveStatus | undefined =
      !json && io.quiet !== true && io.stderr.isTTY === true
        ? (await import('../output/live-status.ts')).createLiveStatus(io.stderr, createStyle(io.stderr, io.env))
        : undefined;
    const { engine, resumed } = await createCliEngine(setup, {
      io,
      journal: chooseJournal(values.journal, io, setup.config),
      observer: live,
      onInternalEmit: (outcome) => reportInternalEmit(outcome, io, !json),
    });
    const stopListening = onShutdownSignal((signal) => {
      live?.stop();
      // Aborts the hooks (killing their process groups), releases their journal entries and disposes
      // sessions; then says which resumed entries were left pending, and exits.
      void engine
        .close()
        .then(resumed)
        .finally(() => process.exit(signalExitCode(signal)));
    });
    try {
      const pending = await engine.emit(event, context);
      // The CLI waits for the non-blocking hooks and prints the settled outcome.
      const outcome = await pending.settled;
      live?.stop();
      if (json) {
        io.stdout.write(`${JSON.stringify(outcome)}\n`);
      } else if (io.quiet !== true) {
        const { formatOutcome } = await import('../output/format-outcome.ts');
        io.stdout.write(`${formatOutcome(outcome, createStyle(io.stdout, io.env))}\n`);
        printWarnings(outcome.warnings, io);
      }
      // The durable hooks resumed at start have run (or failed) before the process may end.
      await resumed();
      return outcome.decision === 'block' ? 2 : 0;
    } finally {
      // On an error too, resumed hooks finish rather than being cut off by close(); the live line
      // keeps showing them until then.
      await resumed().catch(() => undefined);
      live?.stop();
      await engine.close();
      stopListening();
    }
  },
} satisfies CommandModule<typeof emit>;
