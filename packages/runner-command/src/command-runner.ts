import process from 'node:process';
import { defineRunner, firstCharacters, type Runner } from '@hookline/core/plugin';
import { commandOptions, DEFAULT_MAX_OUTPUT_BYTES } from './command-keys.ts';
import { commandLogPath, DEFAULT_LOG_ROOT } from './command-log.ts';
import { DEFAULT_KILL_GRACE_MS, DEFAULT_STDERR_TAIL_BYTES } from './defaults.ts';
import { runCommandHook, type CommandLogTarget } from './run-command-hook.ts';
import { createSharedHostSession } from './shared-host-session.ts';

/** Settings of {@link commandRunner}. */
export interface CommandRunnerSettings {
  /**
   * The environment of `sandbox = false` hooks, and where a hook's `env_passthrough` names are read;
   * default `process.env`, read at every run. Sandboxed hooks get their base environment from the
   * sandbox provider.
   */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Capture cap per stream for hooks without `max_output_bytes`; default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Trailing stderr bytes a report carries when a hook exits non-zero or is killed; default 4 096, 0 for none. */
  readonly stderrTailBytes?: number;
  /** Time between SIGTERM and SIGKILL for `sandbox = false` hooks; default 2 000 ms. */
  readonly killGraceMs?: number;
  /**
   * Where the private directory for context files is made. Default: `$XDG_RUNTIME_DIR`, else
   * `/dev/shm` on Linux, else the OS temp directory — memory-backed first, so contexts stay off disk.
   */
  readonly temporaryDirectory?: string;
  /**
   * Where per-hook logs go for presets that keep them (`task`): `<logRoot>/<task>/hooks/<point>-NN.log`.
   * Default `runs`, resolved against the process's working directory when a hook runs.
   */
  readonly logRoot?: string;
}

/**
 * The runner of `type = "command"` hooks and the `command = "…"` shorthand. A hook runs
 * as `{preset.command.shell} -c command` in the run's sandbox session when the engine hands one (the `local`
 * provider, docker, …), else on the host with the host's full environment. Either way the preset's
 * protocol applies (`arc`'s exit codes and decision JSON, or `agent`'s exit-code veto) and the report
 * carries `exit_code`, `signal`, truncation flags and stderr's end. Presets that keep logs (`task`)
 * get one file per hook under `logRoot`.
 *
 * ```ts
 * const runners = [commandRunner()];
 * const engine = createHookEngine({ config: loadConfig(sources, { runners }), runners, sandbox: localSandbox() });
 * ```
 */
export function commandRunner(settings: CommandRunnerSettings = {}): Runner {
  const maxOutputBytes = settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const scope = {
    maxOutputBytes,
    stderrTailBytes: settings.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES,
    environment: () => settings.environment ?? process.env,
  };
  const host = createSharedHostSession({
    ...(settings.environment === undefined ? {} : { environment: settings.environment }),
    killGraceMs: settings.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    maxOutputBytes,
    ...(settings.temporaryDirectory === undefined ? {} : { temporaryDirectory: settings.temporaryDirectory }),
  });

  return defineRunner({
    name: '@hookline/runner-command',
    types: {
      command: {
        options: commandOptions,
        // 60 s, and a command that cannot run blocks (fails closed).
        defaultTimeoutMs: 60_000,
        defaultOnError: 'block',
        usesSandbox: true,
        identity: (options) => firstCharacters(typeof options.command === 'string' ? options.command : '', 20),
        doRun(hook, call) {
          const { options } = hook;
          const { preset, context } = call;
          let log: CommandLogTarget | undefined;
          if (preset.command.log === true) {
            const key = context[preset.sessionField];
            log = {
              path: commandLogPath(
                settings.logRoot ?? DEFAULT_LOG_ROOT,
                key === undefined || key === null ? '_' : typeof key === 'string' ? key : JSON.stringify(key),
                hook.name,
              ),
              hook: hook.name,
            };
          }
          if (call.sandbox !== undefined) return runCommandHook(options, call, call.sandbox, scope, log);
          return host.use((session) => runCommandHook(options, call, session, scope, log));
        },
      },
    },
    doClose() {
      return host.close();
    },
  });
}
