import { afterEach } from 'vitest';
import { loadConfig } from '../src/config/load-config.ts';
import { createHookEngine, type HookEngine, type HookEngineOptions } from '../src/engine/create-hook-engine.ts';
import { scriptedRunner, type ScriptedRunner } from '../src/testing/scripted-runner.ts';

/** The journal key of test engines: a fixed 32 bytes, so that tests can seal entries as an engine would. */
export const TEST_JOURNAL_KEY = new Uint8Array(32).fill(7);

/** Options of `engineFor`: engine options, plus the scripted runner to use (a new one by default). */
export type ScriptedEngineOptions = Partial<HookEngineOptions> & { runner?: ScriptedRunner };

/**
 * Engines over a scripted runner for engine tests: `engineFor(toml)` loads the TOML and creates the
 * engine; every engine made in a test (or handed to `closeAfterTest`) is closed after it.
 */
export function scriptedEngines(): {
  engineFor(toml: string, options?: ScriptedEngineOptions): { engine: HookEngine; runner: ScriptedRunner };
  /** Closes an engine the test made itself after the test. */
  closeAfterTest(engine: HookEngine): HookEngine;
} {
  const engines: HookEngine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });
  return {
    engineFor(toml, options = {}) {
      const runner = options.runner ?? scriptedRunner();
      const config = loadConfig([{ text: toml, source: 'test.toml' }], { runners: [runner] });
      const engine = createHookEngine({
        config,
        runners: [runner],
        ...(options.journal === undefined ? {} : { journalKey: TEST_JOURNAL_KEY }),
        ...options,
      });
      engines.push(engine);
      return { engine, runner };
    },
    closeAfterTest(engine) {
      engines.push(engine);
      return engine;
    },
  };
}

/** A `[[hooks]]` table of the scripted type, its own keys given as TOML lines in `body`. */
export function scriptedHook(name: string, body: string, event: string): string {
  return `[[hooks]]\nname = "${name}"\nevent = "${event}"\ntype = "scripted"\n${body}\n`;
}
