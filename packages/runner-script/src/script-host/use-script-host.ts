import type { Runner } from '@hookline/core/plugin';
import { NodeFlagsRequired } from '../node-flags/node-flags-required.ts';
import { nodeSnapshotDisabled } from '../node-snapshot.ts';
import { SCRIPT_RUNNER_NAME } from '../script-runner-name.ts';
import type { ScriptHostBuild } from './open-script-host.ts';

/** The flags script hooks need in the process that runs them (isolated-vm: see node-snapshot.ts). */
export const SCRIPT_NODE_FLAGS: readonly string[] = ['--no-node-snapshot'];

/** Whether `HOOKLINE_SCRIPT_HOST` turns the host off (`off`, `0`, `false`, `no`). */
export function scriptHostDisabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return ['off', '0', 'false', 'no'].includes((env['HOOKLINE_SCRIPT_HOST'] ?? '').trim().toLowerCase());
}

/** Where this process's script hooks run: in it (it has the flags), or in the resident script host. */
export type ScriptHookProcess = 'this-process' | 'script-host';

/**
 * Where script hooks of a program that is about to run them will run. Throws `NodeFlagsRequired`
 * when this process lacks the flags and `HOOKLINE_SCRIPT_HOST` turns the host off: the program
 * restarts with them, before anything ran. Decided before the runners load and the config is checked.
 */
export function scriptHookProcess(env: Readonly<Record<string, string | undefined>>): ScriptHookProcess {
  if (nodeSnapshotDisabled(process.execArgv, env['NODE_OPTIONS'] ?? '')) return 'this-process';
  if (scriptHostDisabled(env)) throw new NodeFlagsRequired(SCRIPT_NODE_FLAGS);
  return 'script-host';
}

/** What {@link withScriptHost} needs of the program that calls it. */
export interface ScriptHostOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The folder relative `file` sources resolve from. */
  readonly cwd: string;
  /** The calling program's build; without one (a program run from its sources) no host is used. */
  readonly build: ScriptHostBuild | undefined;
}

/**
 * `runners` with this package's script runner's runs sent to the script host of this build (started
 * now when none runs). When no host can serve, throws `NodeFlagsRequired`: the program then restarts
 * itself with the flags, as it does with the host off — before any hook ran and before stdin was read.
 */
export async function withScriptHost(runners: readonly Runner[], options: ScriptHostOptions): Promise<Runner[]> {
  const index = runners.findIndex(
    (runner) => runner.name === SCRIPT_RUNNER_NAME && runner.types['script'] !== undefined,
  );
  if (index < 0) throw new NodeFlagsRequired(SCRIPT_NODE_FLAGS);
  // Loaded here, not with this module: a process that runs script hooks itself never needs them.
  const [{ openScriptHost }, { remoteScriptRunner }] = await Promise.all([
    import('./open-script-host.ts'),
    import('./remote-script-runner.ts'),
  ]);
  const open = () => openScriptHost(options.env, options.build);
  const first = await open();
  if (!('pid' in first)) {
    throw new NodeFlagsRequired(
      SCRIPT_NODE_FLAGS,
      first.tell
        ? `not using the script host: ${first.problem}; running script hooks by restarting Node with ${SCRIPT_NODE_FLAGS.join(' ')} instead`
        : undefined,
    );
  }
  return runners.map((runner, at) => (at === index ? remoteScriptRunner(runner, first, open, options.cwd) : runner));
}
