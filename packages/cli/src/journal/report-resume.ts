import {
  EngineClosedError,
  HooklineError,
  type HookEngine,
  type JournalEntry,
  type ResumeReport,
} from '@hookline/core';
import type { CliIo } from '../cli-io.ts';
import { createStyle } from '../output/style.ts';
import { printWarnings } from '../print-warnings.ts';
import { terminalText } from '../output/terminal-text.ts';

/**
 * Starts `engine.resume()` — the durable hooks a killed or interrupted process left in the journal —
 * and reports on stderr, when it ends, what ran again (one line per entry, with its warnings) and
 * what is still pending. A journal that cannot be used (a `JournalError`: corrupted file, folder not
 * writable) is a warning with what to do, not a failure: core still runs every emit's hooks, only
 * without journaling them. Resolves to an unexpected error (a bug) instead of rejecting, so that
 * nothing is left unhandled while the caller's own work goes on.
 */
export function startResume(engine: HookEngine, io: CliIo): Promise<{ readonly bug?: unknown }> {
  return engine.resume().then(
    (report) => {
      reportResume(report, engine, io);
      return {};
    },
    (error: unknown) => {
      // isInstance, not instanceof: the markers survive duplicate installs of core.
      // A signal closed the engine before the resume began; close() released what it held.
      if (EngineClosedError.isInstance(error)) return {};
      if (!HooklineError.isInstance(error)) return { bug: error };
      printWarnings([`durable hooks left by earlier runs were not resumed: ${error.message}`], io);
      return {};
    },
  );
}

function reportResume(report: ResumeReport, engine: HookEngine, io: CliIo): void {
  const style = createStyle(io.stderr, io.env);
  for (const { entry, outcome } of report.ran) {
    const hooks = outcome.hooks.map((hook) => `${hook.name} ${hook.status}`).join(', ');
    io.stderr.write(
      `${style.paint('dim', terminalText(`hookline: resumed ${describe(entry, engine)}: ${hooks === '' ? 'no hook to run' : hooks}`))}\n`,
    );
    printWarnings(
      outcome.warnings.map((warning) => `resumed ${entry.event} (journal entry ${entry.id}): ${warning}`),
      io,
    );
  }
  printWarnings(
    report.pending.map(({ entry, error }) => `${describe(entry, engine)} was left in the journal: ${error}`),
    io,
  );
  printWarnings(
    report.refused.map(({ entry, reason }) => `${describe(entry, engine)} was dead-lettered, not run — ${reason}`),
    io,
  );
}

// `after_merge for task "t-1" (journal entry 3, attempt 2)`
function describe(entry: JournalEntry, engine: HookEngine): string {
  const field = engine.preset.sessionField;
  const key = entry.context[field];
  const of = typeof key === 'string' ? ` for ${field} "${key}"` : '';
  return `${entry.event}${of} (journal entry ${entry.id}, attempt ${entry.attempts})`;
}
