import {
  createHookEngine,
  loadConfig,
  type EmitOutcome,
  type HookEngine,
  type HookReport,
  type Runner,
  type SandboxProvider,
} from '@hookline/core';
import { commandRunner } from '../src/command-runner.ts';
import { localSandbox } from '../src/local-sandbox.ts';

/** Where the hooks of a test run: on the host (`sandbox = false`) or in the local sandbox. */
export type Placement = 'host' | 'local';

/** A hook as a test writes it: its TOML keys. */
export type HookTable = Readonly<Record<string, string | number | boolean | readonly string[]>>;

/** What a test engine is made of. */
export interface EngineOptions {
  readonly placement?: Placement;
  readonly runner?: Runner;
  readonly sandbox?: SandboxProvider;
  readonly concurrency?: number;
  /** The event hooks are attached to (unless they say) and emitted; default `stage_start`. */
  readonly event?: string;
}

/** The context tests emit unless they say otherwise. */
export const baseContext = { run_id: 'test-run', workflow_name: 'tests', node_id: 'build' } as const;

/**
 * The TOML text of `hooks`. Values are written with `JSON.stringify`, whose escapes are valid TOML
 * basic-string escapes, so commands with quotes and backslashes survive unchanged.
 */
export function configText(hooks: readonly HookTable[]): string {
  return hooks
    .map((hook) =>
      ['[[hooks]]', ...Object.entries(hook).map(([key, value]) => `${key} = ${JSON.stringify(value)}`)].join('\n'),
    )
    .join('\n\n');
}

/**
 * Loads `hooks` through the real loader and builds a real engine with the command runner. Hooks run
 * on the host unless `placement` is `local`; a hook's own `sandbox` key wins.
 */
export function startEngine(hooks: readonly HookTable[], options: EngineOptions = {}): HookEngine {
  const placement = options.placement ?? 'host';
  const runner = options.runner ?? commandRunner();
  const placed = hooks.map((hook) => ({
    event: options.event ?? 'stage_start',
    sandbox: placement === 'local',
    ...hook,
  }));
  const config = loadConfig([{ text: configText(placed), source: 'test.toml' }], { runners: [runner] });
  const sandbox = options.sandbox ?? (placement === 'local' ? localSandbox() : undefined);
  return createHookEngine({
    config,
    runners: [runner],
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
}

/** Emits one event to a fresh engine, waits for every hook (non-blocking ones too) and closes it. */
export async function emitHooks(
  hooks: readonly HookTable[],
  options: EngineOptions & { readonly context?: Readonly<Record<string, unknown>> } = {},
): Promise<EmitOutcome> {
  const engine = startEngine(hooks, options);
  try {
    const outcome = await engine.emit(options.event ?? 'stage_start', { ...baseContext, ...options.context });
    return await outcome.settled;
  } finally {
    await engine.close();
  }
}

/** The one hook report of an emit with a single hook. */
export async function runOne(hook: HookTable, options: Parameters<typeof emitHooks>[1] = {}): Promise<HookReport> {
  const outcome = await emitHooks([hook], options);
  const report = outcome.hooks[0];
  if (report === undefined) throw new Error(`no report: ${JSON.stringify(outcome)}`);
  return report;
}

/** A shell word: `text` in single quotes, safe inside any command. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
