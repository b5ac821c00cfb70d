import {
  combineObservers,
  createHookEngine,
  type EmitOutcome,
  type EngineObserver,
  type HookEngine,
  type Journal,
} from '@hookline/core';
import type { CliIo } from './cli-io.ts';
import type { Setup } from './config/load-setup.ts';
import { hiddenHostPaths } from './config/hidden-host-paths.ts';
import { protectedHostPaths } from './config/protected-host-paths.ts';
import type { JournalChoice } from './journal/journal-path.ts';
import { loadJournal } from './journal/load-journal.ts';
import { loadSandbox } from './plugins/load-sandbox.ts';
import { tracingRequested } from './telemetry/tracing-requested.ts';

/** What the CLI hooks into an engine. */
export interface CliEngineOptions {
  /** Where warnings and the journal's resume report go. */
  readonly io: CliIo;
  /** The journal, used when the config has durable hooks (see `chooseJournal`). */
  readonly journal: JournalChoice;
  /** Told when emits and hooks start and end (the live line), alongside the tracing observer, if any. */
  readonly observer?: EngineObserver | undefined;
  /** Told the outcome of each event the engine emits by itself (`sandbox_ready`, `sandbox_cleanup`). */
  readonly onInternalEmit?: (outcome: EmitOutcome) => void;
  /** Whether to resume the journal at once (default true); `hookline worker` drives it itself. */
  readonly resumeAtStart?: boolean;
  /** How many hooks run at once (the engine's `concurrency`). */
  readonly concurrency?: number;
}

/** An engine that is already resuming what earlier processes left in its journal. */
export interface CliEngine {
  readonly engine: HookEngine;
  /** The journal, when the config has durable hooks. */
  readonly journal?: Journal;
  /**
   * Resolves once the resume started with the engine has ended and been reported on stderr (at once
   * without a journal). Await it before closing the engine: closing stops the resumed hooks.
   */
  readonly resumed: () => Promise<void>;
}

/**
 * An engine for a loaded setup: its sandbox provider loaded on demand, observed if asked (and traced
 * when an OTLP endpoint is configured), and — when the config has durable hooks — the journal (SQLite,
 * or PostgreSQL for a postgres:// URL), whose leftovers (durable hooks of a killed process) start
 * running again at once, alongside the command's own work — unless workers run them (`[journal] run`).
 */
export async function createCliEngine(setup: Setup, options: CliEngineOptions): Promise<CliEngine> {
  const sandbox = await loadSandbox(
    setup.config,
    setup.runners,
    setup.pluginSandboxes,
    setup.folders,
    setup.sources,
    () => protectedHostPaths(setup, options.journal, options.io),
    () => hiddenHostPaths(options.io),
  );
  const journal = await loadJournal(setup.config, options.journal);
  // OpenTelemetry is loaded only when an OTLP endpoint is configured.
  const tracing = tracingRequested(options.io.env)
    ? (await import('./telemetry/start-tracing.ts')).startTracing(options.io)
    : undefined;
  const observer = combineObservers(options.observer, tracing?.observer);
  const created = createHookEngine({
    config: setup.config,
    runners: setup.runners,
    presets: setup.presets.all,
    ...(sandbox === undefined ? {} : { sandbox }),
    // The key is read (or made) when an entry is first sealed or checked, not before.
    ...(journal === undefined
      ? {}
      : {
          journal,
          journalKey: async () => (await import('./journal/journal-key.ts')).loadJournalKey(options.io.env).bytes,
        }),
    ...(options.onInternalEmit === undefined ? {} : { onInternalEmit: options.onInternalEmit }),
    ...(observer === undefined ? {} : { observer }),
    // [journal] run = "workers": emit and run only record durable hooks; `hookline worker` runs them.
    ...(options.journal.run === 'workers' ? { durableHooks: 'record' as const } : {}),
    ...(options.journal.leaseMs === undefined ? {} : { journalLeaseMs: options.journal.leaseMs }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
  // Closing the engine also exports the spans still buffered, before the process exits.
  const engine: HookEngine =
    tracing === undefined ? created : { ...created, close: () => created.close().then(() => tracing.shutdown()) };
  // Emitters of a journal run by workers leave its entries to the workers.
  if (journal === undefined || options.journal.run === 'workers' || options.resumeAtStart === false)
    return { engine, ...(journal === undefined ? {} : { journal }), resumed: () => Promise.resolve() };
  const resuming = (await import('./journal/report-resume.ts')).startResume(engine, options.io);
  return {
    engine,
    journal,
    async resumed() {
      const resumed = await resuming;
      if ('bug' in resumed) throw resumed.bug;
    },
  };
}
