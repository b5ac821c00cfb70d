import { createHookEngine, type EmitOutcome, type HookEngine } from '@hookline/core';
import type { Setup } from './config/load-setup.ts';
import type { RunObserver } from './output/track-runners.ts';
import { loadSandbox } from './plugins/load-sandbox.ts';

/** What the CLI hooks into an engine. */
export interface CliEngineOptions {
  /** Told when hooks start and end (the live line). */
  readonly observer?: RunObserver | undefined;
  /** Told the outcome of each event the engine emits by itself (`sandbox_ready`, `sandbox_cleanup`). */
  readonly onInternalEmit?: (outcome: EmitOutcome) => void;
}

/** An engine for a loaded setup: its sandbox provider loaded on demand, its runners observed if asked. */
export async function createCliEngine(setup: Setup, options: CliEngineOptions = {}): Promise<HookEngine> {
  const { observer } = options;
  const sandbox = await loadSandbox(setup.config, setup.runners, setup.pluginSandboxes, setup.folders);
  const runners = observer === undefined ? setup.runners : (await import('./output/track-runners.ts')).trackRunners(setup.runners, observer);
  return createHookEngine({
    config: setup.config,
    runners,
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(options.onInternalEmit === undefined ? {} : { onInternalEmit: options.onInternalEmit }),
  });
}
