import {
  defineRunner,
  firstCharacters,
  HooklineError,
  InvalidOptionError,
  type HookDefinition,
  type Runner,
} from '@hookline/core/plugin';
import { checkScriptHook } from './check-script-hook.ts';
import { scriptSourceRules } from './script-source-rules.ts';
import type { PoolStats } from './create-pool.ts';
import {
  DEFAULT_MEMORY_LIMIT_MB,
  DEFAULT_POOL_SIZE,
  DEFAULT_SCRIPT_TIMEOUT_MS,
  MAX_MEMORY_LIMIT_MB,
  MIN_MEMORY_LIMIT_MB,
} from './defaults.ts';
import { createIsolatePools } from './isolate-pools.ts';
import { NATIVES_SYNTAX_ERROR, nativesSyntaxEnabled } from './natives-syntax.ts';
import { NODE_SNAPSHOT_ERROR, nodeSnapshotDisabled } from './node-snapshot.ts';
import { runScriptHook } from './run-script-hook.ts';
import { createScriptFiles } from './script-files.ts';
import { scriptOptions, type ScriptHookOptions } from './script-keys.ts';
import type { ScriptSource } from './script-source.ts';
import { SCRIPT_RUNNER_NAME } from './script-runner-name.ts';

/** Settings of {@link scriptRunner}. */
export interface ScriptRunnerSettings {
  /** Memory limit of each isolate, in MiB, for hooks without `memory_limit_mb`; default 32. */
  readonly memoryLimitMb?: number;
  /** Isolates kept warm per memory limit; more hooks at once wait for one. Default 4. */
  readonly poolSize?: number;
  /**
   * Run script hooks even when Node was started without `--no-node-snapshot`, which isolated-vm
   * requires on Node ≥ 20 because the process can otherwise crash. Default `false`: such hooks fail
   * with an error that says how to start Node.
   */
  readonly allowNodeSnapshot?: boolean;
}

/** The script runner, plus counts of its isolates for monitoring. */
export interface ScriptRunner extends Runner {
  /** Isolates alive, idle, busy, hooks waiting for one, and totals made and disposed since creation. */
  stats(): PoolStats;
}

/**
 * The runner of `type = "script"` hooks: JavaScript in a V8 isolate of its own, with a
 * memory limit, a wall-clock deadline that covers awaited promises, and nothing of the host in reach.
 * Node only (isolated-vm is a native addon). Construction does nothing; isolated-vm is loaded and
 * isolates are made when the first hook runs, then reused, each run in a fresh context.
 *
 * ```ts
 * const runners = [scriptRunner()];
 * const engine = createHookEngine({ config: loadConfig(sources, { runners }), runners });
 * ```
 */
export function scriptRunner(settings: ScriptRunnerSettings = {}): ScriptRunner {
  const memoryLimitMb = settings.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
  const poolSize = settings.poolSize ?? DEFAULT_POOL_SIZE;
  if (!Number.isInteger(memoryLimitMb) || memoryLimitMb < MIN_MEMORY_LIMIT_MB || memoryLimitMb > MAX_MEMORY_LIMIT_MB) {
    throw new InvalidOptionError(
      'scriptRunner',
      'memoryLimitMb',
      `memoryLimitMb must be an integer from ${MIN_MEMORY_LIMIT_MB} to ${MAX_MEMORY_LIMIT_MB}, not ${memoryLimitMb}`,
    );
  }
  if (!Number.isInteger(poolSize) || poolSize < 1)
    throw new InvalidOptionError('scriptRunner', 'poolSize', `poolSize must be a positive integer, not ${poolSize}`);

  let catastrophe: string | undefined;
  // Flags of the process: checked on the first run, not at construction (which does nothing).
  let processRefusal: string | undefined | null = null;
  const pools = createIsolatePools(poolSize, (message) => {
    // isolated-vm's word for "V8 lost control of an isolate": nothing in this process can be trusted
    // to run scripts any more, so every later script hook fails (and on_error decides).
    catastrophe = `isolated-vm reported a catastrophic error (${message}); script hooks are disabled until the process restarts`;
  });
  const scope = {
    memoryLimitMb,
    pools,
    files: createScriptFiles(),
    inline: new WeakMap<HookDefinition<ScriptHookOptions>, ScriptSource>(),
    refusal: (): string | undefined => {
      if (catastrophe !== undefined) return catastrophe;
      if (processRefusal === null) {
        processRefusal = nativesSyntaxEnabled()
          ? NATIVES_SYNTAX_ERROR
          : settings.allowNodeSnapshot !== true && !nodeSnapshotDisabled()
            ? NODE_SNAPSHOT_ERROR
            : undefined;
      }
      return processRefusal;
    },
  };

  const runner = defineRunner({
    name: SCRIPT_RUNNER_NAME,
    types: {
      script: {
        options: scriptOptions,
        defaultTimeoutMs: DEFAULT_SCRIPT_TIMEOUT_MS,
        // Errors, timeouts and memory exhaustion block unless the hook says otherwise.
        defaultOnError: 'block',
        usesSandbox: false,
        identity: (options) =>
          typeof options.script === 'string' ? firstCharacters(options.script, 20) : String(options.file ?? 'script'),
        rules: scriptSourceRules,
        check: checkScriptHook,
        doRun(hook, call) {
          return runScriptHook(hook, call, scope);
        },
      },
    },
    async doClose() {
      pools.close(new HooklineError('HOOKLINE_SCRIPT_RUNNER_CLOSED', 'the script runner closed'));
    },
  });
  return { ...runner, stats: () => pools.stats() };
}
