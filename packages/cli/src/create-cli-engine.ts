import { combineObservers, createHookEngine, type EmitOutcome, type EngineObserver, type HookEngine } from '@hookline/core';
import type { CliIo } from './cli-io.ts';
import type { Setup } from './config/load-setup.ts';
import { loadJournal } from './journal/load-journal.ts';
import { loadSandbox } from './plugins/load-sandbox.ts';
import { tracingRequested } from './telemetry/tracing-requested.ts';

/** What the CLI hooks into an engine. */
export interface CliEngineOptions {
  /** Where warnings and the journal's resume report go. */
  readonly io: CliIo;
  /** The journal file, used when the config has durable hooks (see `journalPath`). */
  readonly journalPath: string;
  /** Told when emits and hooks start and end (the live line), alongside the tracing observer, if any. */
  readonly observer?: EngineObserver | undefined;
  /** Told the outcome of each event the engine emits by itself (`sandbox_ready`, `sandbox_cleanup`). */
  readonly onInternalEmit?: (outcome: EmitOutcome) => void;
}

/** An engine that is already resuming what earlier processes left in its journal. */
export interface CliEngine {
  readonly engine: HookEngine;
  /**
   * Resolves once the resume started with the engine has ended and been reported on stderr (at once
   * without a journal). Await it before closing the engine: closing stops the resumed hooks.
   */
  resumed(): Promise<void>;
}

/**
 * An engine for a loaded setup: its sandbox provider loaded on demand, observed if asked (and traced
 * when an OTLP endpoint is configured), and — when the config has durable hooks — the SQLite journal, whose leftovers (durable hooks of a
 * killed process) start running again at once, alongside the command's own work.
 */
export async function createCliEngine(setup: Setup, options: CliEngineOptions): Promise<CliEngine> {
  const sandbox = await loadSandbox(setup.config, setup.runners, setup.pluginSandboxes, setup.folders, setup.sources);
  const journal = await loadJournal(setup.config, options.journalPath);
  // OpenTelemetry is loaded only when an OTLP endpoint is configured.
  const tracing = tracingRequested(options.io.env) ? (await import('./telemetry/start-tracing.ts')).startTracing(options.io) : undefined;
  const observer = combineObservers(options.observer, tracing?.observer);
  const created = createHookEngine({
    config: setup.config,
    runners: setup.runners,
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(journal === undefined ? {} : { journal }),
    ...(options.onInternalEmit === undefined ? {} : { onInternalEmit: options.onInternalEmit }),
    ...(observer === undefined ? {} : { observer }),
  });
  // Closing the engine also exports the spans still buffered, before the process exits.
  const engine: HookEngine = tracing === undefined ? created : { ...created, close: () => created.close().then(() => tracing.shutdown()) };
  if (journal === undefined) return { engine, resumed: () => Promise.resolve() };
  const resuming = (await import('./journal/report-resume.ts')).startResume(engine, options.io);
  return {
    engine,
    async resumed() {
      const { bug } = await resuming;
      if (bug !== undefined) throw bug;
    },
  };
}
