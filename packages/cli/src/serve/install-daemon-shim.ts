import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { AgentAdapter } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';

/** What `hookline install <agent> --daemon` writes its shim with. */
export interface DaemonShimRequest {
  /** The bridge's command line: the shim's fallback. */
  readonly bridgeLine: string;
  readonly deadlineSeconds: number;
  readonly configFiles: readonly string[];
  readonly preset: string | undefined;
  readonly dryRun: boolean;
  readonly io: CliIo;
}

/** The entries' command (the shim's path) and how long the shim waits for the daemon. */
export interface DaemonShim {
  readonly command: string;
  readonly waitSeconds: number;
}

/**
 * Writes the agent's shim (unless `dryRun`) and returns the command the entries run. The shim waits
 * for the daemon a little longer than the bridge's deadline (the daemon answers by then, refusing a
 * guard whose hooks have not decided), then runs the bridge.
 */
export async function installDaemonShim(adapter: AgentAdapter, request: DaemonShimRequest): Promise<DaemonShim> {
  if (request.configFiles.length > 0) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      '--daemon reads configs as the daemon finds them (the user layer and the project folder); drop --config, or install without --daemon.',
    );
  }
  const bash = findOnPath('bash', request.io.env);
  if (bash === undefined) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      'the daemon shim is a bash script, and bash is not on this PATH; install bash, or install without --daemon.',
    );
  }
  const { servePaths, writeShim } = await import('@hookline/serve');
  const paths = servePaths(request.io.env);
  const waitSeconds = Math.ceil(request.deadlineSeconds + 2);
  const command = join(paths.stateDir, 'shims', adapter.name);
  if (!request.dryRun) {
    writeShim(paths, {
      agent: adapter.name,
      bash,
      fallbackCommand: request.bridgeLine,
      timeoutSeconds: waitSeconds,
      preset: request.preset,
    });
  }
  return { command: `'${command.replaceAll("'", `'\\''`)}'`, waitSeconds };
}

function findOnPath(program: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const folder of (env['PATH'] ?? '').split(delimiter)) {
    if (folder === '') continue;
    try {
      accessSync(join(folder, program), constants.X_OK);
      return join(folder, program);
    } catch {
      // Not here.
    }
  }
  return undefined;
}
