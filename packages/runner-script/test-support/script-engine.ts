import { createHookEngine, loadConfig, type EmitOutcome, type HookEngine } from '@hookline/core';
import { scriptRunner, type ScriptRunner } from '../src/index.ts';

/** The context every test emits unless it says otherwise. */
export const CONTEXT = { run_id: 'run-1', workflow_name: 'ship', node_id: 'deploy' } as const;

/** TOML for one stage_start script hook; `extra` is appended inside the table. */
export function scriptHookToml(script: string, extra = '', name = 'check'): string {
  return `[[hooks]]\nname = "${name}"\nevent = "stage_start"\ntype = "script"\nscript = ${JSON.stringify(script)}\n${extra}\n`;
}

/** An engine over `toml`, loaded with the real loader, using `runner` (a fresh one by default). */
export function scriptEngine(
  toml: string,
  runner: ScriptRunner = scriptRunner(),
  source = 'hookline.toml',
): HookEngine {
  const config = loadConfig([{ text: toml, source }], { runners: [runner] });
  return createHookEngine({ config, runners: [runner] });
}

/** Emits stage_start once on `engine` and waits for every hook. */
export async function emitSettled(engine: HookEngine, context: object = CONTEXT): Promise<EmitOutcome> {
  const outcome = await engine.emit('stage_start', context);
  return outcome.settled;
}

/** Loads, emits once and closes: the outcome of one script hook. */
export async function runOnce(
  script: string,
  extra = '',
  runner?: ScriptRunner,
  context: object = CONTEXT,
): Promise<EmitOutcome> {
  const engine = scriptEngine(scriptHookToml(script, extra), runner);
  try {
    return await emitSettled(engine, context);
  } finally {
    await engine.close();
  }
}
