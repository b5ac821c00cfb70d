// Loads HTTP hooks through the real config loader and runs them through the real engine.
import {
  ConfigError,
  createHookEngine,
  loadConfig,
  type EmitOutcome,
  type HookConfig,
  type Runner,
} from '@hookline/core';
import { httpRunner } from '../src/index.ts';

/** A context every test can emit with. */
export const CONTEXT = { run_id: 'run-1', workflow_name: 'ship', node_id: 'build' } as const;

/** Loads `toml` with the given runner (a fresh httpRunner by default). */
export function load(toml: string, runner: Runner = httpRunner()): HookConfig {
  return loadConfig([{ text: toml, source: 'hookline.toml' }], { runners: [runner] });
}

/** The ConfigError that loading `toml` throws; fails when it loads. */
export function loadError(toml: string): ConfigError {
  try {
    load(toml);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the config to be rejected');
}

/** One blocking http hook on stage_start with extra TOML lines. */
export function httpHook(url: string, extra = ''): string {
  return `[[hooks]]\nname = "web"\nevent = "stage_start"\ntype = "http"\nurl = ${JSON.stringify(url)}\n${extra}\n`;
}

/**
 * Emits one event through a fresh engine and returns the settled outcome; closes the engine.
 * `closeGraceMs` longer than the test's timeout makes a request the runner does not let go of after
 * its deadline fail the test, instead of being waited out by close().
 */
export async function emitOnce(
  toml: string,
  options: { runner?: Runner; event?: string; context?: Record<string, unknown>; closeGraceMs?: number } = {},
): Promise<EmitOutcome> {
  const runner = options.runner ?? httpRunner();
  const config = load(toml, runner);
  const engine = createHookEngine({
    config,
    runners: [runner],
    ...(options.closeGraceMs === undefined ? {} : { closeGraceMs: options.closeGraceMs }),
  });
  try {
    const outcome = await engine.emit(options.event ?? 'stage_start', { ...CONTEXT, ...options.context });
    return await outcome.settled;
  } finally {
    await engine.close();
  }
}
