// Runs hooks of the runner under test through the real loader and engine, as a host would.
import { createHookEngine, loadConfig, type HookReport, type Runner, type SandboxProvider } from '@hookline/core';

/** The context every test emits with, plus `extra`. */
export function testContext(extra: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { run_id: 'run-llm-test', workflow_name: 'llm-tests', node_id: 'build', ...extra };
}

/** A flat TOML `[[hooks]]` table; values are strings, numbers or booleans. */
export function hookToml(keys: Readonly<Record<string, string | number | boolean>>): string {
  const lines = Object.entries(keys).map(
    ([key, value]) => `${key} = ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
  );
  return `[[hooks]]\n${lines.join('\n')}\n`;
}

/**
 * Loads one hook (event `stage_start`, `sandbox = false` unless given), emits once, and returns its
 * report. `closeGraceMs` longer than the test's timeout makes a runner that does not let go after
 * the deadline fail the test, instead of being waited out by close().
 */
export async function emitHook(
  runner: Runner,
  keys: Readonly<Record<string, string | number | boolean>>,
  options: {
    readonly context?: Readonly<Record<string, unknown>>;
    readonly sandbox?: SandboxProvider;
    readonly closeGraceMs?: number;
  } = {},
): Promise<HookReport> {
  const text = `${options.sandbox === undefined ? '' : `[sandbox]\nprovider = "${options.sandbox.name}"\n\n`}${hookToml({ name: 'llm', event: 'stage_start', sandbox: options.sandbox !== undefined, ...keys })}`;
  const config = loadConfig([{ text, source: 'test.toml' }], { runners: [runner] });
  const engine = createHookEngine({
    config,
    runners: [runner],
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    ...(options.closeGraceMs === undefined ? {} : { closeGraceMs: options.closeGraceMs }),
  });
  try {
    const outcome = await engine.emit('stage_start', testContext(options.context));
    const settled = await outcome.settled;
    return settled.hooks[0]!;
  } finally {
    await engine.close();
  }
}
