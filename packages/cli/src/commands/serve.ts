import process from 'node:process';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';
import type { CommandModule } from '../command.ts';
import type { serve } from '../command-specs.ts';
import { onShutdownSignal } from '../on-shutdown-signal.ts';
import { importFirstParty } from '../plugins/load-first-party.ts';
import { cliVersion } from '../version.ts';

/** `hookline serve [status|stop]`: arguments and output; the daemon is @hookline/serve's. */
export const serveCommand = {
  async run({ values, positionals: { action } }, io) {
    const daemon = await import('@hookline/serve');
    const paths = daemon.servePaths(io.env);
    if (action === 'status') return printStatus(await daemon.daemonStatus(paths), values.json === true, io);
    if (action === 'stop') {
      const stopped = await daemon.stopDaemon(paths);
      io.stdout.write(
        stopped === undefined ? 'hookline serve: not running\n' : `hookline serve: stopped (pid ${stopped.pid})\n`,
      );
      return 0;
    }
    const port = portOption(values.port);
    const scriptFlags = await scriptNodeFlags(io);
    if (values.detach === true) {
      const command = [process.execPath, ...scriptFlags, process.argv[1]!, 'serve', '--port', String(port)];
      const state = await daemon.detachDaemon(command, paths, { ...process.env, ...io.env });
      io.stdout.write(`hookline serve: running (pid ${state.pid}, 127.0.0.1:${state.port}, ${state.socket})\n`);
      return 0;
    }
    // Script hooks run in this process's isolate pool: it needs the Node flags they need.
    await requireFlags(io);
    await useResidentSpawner(io);
    const { cliServeBackend } = await import('../serve/cli-serve-backend.ts');
    const log = daemon.jsonLog(io.stdout);
    const backend = cliServeBackend(io, log);
    const running = await daemon.startDaemon({ backend, paths, log, port, version: cliVersion() });
    let stopListening = (): void => undefined;
    const stopped = new Promise<number>((resolve) => {
      stopListening = onShutdownSignal((signal) => {
        void running.stop(signal).then(() => resolve(0));
      });
    });
    // The servers do not keep the process alive on their own (they are unref'd): this does, until a signal.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    try {
      return await stopped;
    } finally {
      clearInterval(keepAlive);
      stopListening();
    }
  },
} satisfies CommandModule<typeof serve>;

function printStatus(
  found: Awaited<ReturnType<typeof import('@hookline/serve').daemonStatus>>,
  json: boolean,
  io: CliIo,
) {
  if (json) {
    io.stdout.write(
      `${JSON.stringify(found === undefined ? { running: false } : { running: true, ...(found.status as object) })}\n`,
    );
    return found === undefined ? 3 : 0;
  }
  if (found === undefined) {
    io.stdout.write('hookline serve: not running (start it with `hookline serve --detach`)\n');
    return 3;
  }
  const status = found.status as {
    projects?: Array<{ project: string; profile: string; state: string; problem?: string }>;
  };
  io.stdout.write(
    `hookline serve: running (pid ${found.state.pid}, 127.0.0.1:${found.state.port}, ${found.state.socket})\n`,
  );
  for (const project of status.projects ?? []) {
    // Profiles are `bridge:` / `emit:` and the preset the config is read as: agents' calls need no label.
    const [kind = '', preset = ''] = project.profile.split(':');
    const labels = [kind === 'emit' ? 'emit' : '', preset === '' ? '' : `preset ${preset}`].filter(Boolean);
    const profile = labels.length === 0 ? '' : ` [${labels.join(', ')}]`;
    io.stdout.write(
      `  ${project.project}${profile}: ${project.state}${project.problem === undefined ? '' : ` — ${project.problem}`}\n`,
    );
  }
  return 0;
}

function portOption(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError('HOOKLINE_CLI_USAGE', `--port ${value}: give a port number from 0 to 65535 (0: any free one).`);
  }
  return port;
}

type ScriptHostModule = typeof import('@hookline/runner-script/script-host');

/** runner-script's script-host module, when runner-script is installed. */
async function scriptHost(io: CliIo): Promise<ScriptHostModule | undefined> {
  const imported = await importFirstParty('@hookline/runner-script/script-host', [io.cwd]);
  return imported.status === 'loaded' ? (imported.exports as ScriptHostModule) : undefined;
}

/** The Node flags script hooks need (none when runner-script is not installed). */
async function scriptNodeFlags(io: CliIo): Promise<readonly string[]> {
  return (await scriptHost(io))?.SCRIPT_NODE_FLAGS ?? [];
}

/**
 * Command hooks' processes are forked from runner-command's small resident spawner instead of the
 * daemon: a fork costs more the more memory the forking process maps, and the daemon maps a lot.
 * Switched on before any config is loaded, for every copy of runner-command the daemon loads.
 */
async function useResidentSpawner(io: CliIo): Promise<void> {
  const imported = await importFirstParty('@hookline/runner-command', [io.cwd]);
  if (imported.status !== 'loaded') return;
  const { useResidentSpawner: turnOn } = imported.exports as Partial<typeof import('@hookline/runner-command')>;
  turnOn?.();
}

/**
 * Restarts the daemon with the script flags unless it has them (on its command line or in
 * NODE_OPTIONS): runner-script throws its NodeFlagsRequired, which main answers with the restart. The
 * script host is never used here: the daemon is the resident process.
 */
async function requireFlags(io: CliIo): Promise<void> {
  (await scriptHost(io))?.scriptHookProcess({ ...io.env, HOOKLINE_SCRIPT_HOST: 'off' });
}
