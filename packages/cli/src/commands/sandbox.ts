import { CliError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { FIRST_PARTY_SANDBOXES } from '../plugins/first-party-packages.ts';
import { importFirstParty, loadedExport } from '../plugins/load-first-party.ts';
import { helpOption, parseCommandArgs } from '../parse-command-args.ts';

const options = { ...helpOption } as const;

const help = `Usage: hookline sandbox prune

Removes what crashed runs left behind in sandboxes. Docker containers of Hookline runs carry a label
naming their run, so leftovers are found and removed — when @hookline/sandbox-docker is installed.
The local sandbox leaves nothing to prune: its processes end with their hooks.

Options:
  -h, --help   show this help
`;

/** `hookline sandbox prune`: the docker provider's leftover cleanup, when that provider is installed. */
export const sandboxCommand: Command = {
  help,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('sandbox', args, options);
    if (values.help === true) {
      io.stdout.write(help);
      return 0;
    }
    if (positionals[0] !== 'prune' || positionals.length > 1) {
      throw new CliError('HOOKLINE_CLI_USAGE', `\`hookline sandbox\` takes one subcommand, prune; see \`hookline sandbox --help\`.`);
    }
    const docker = FIRST_PARTY_SANDBOXES['docker']!;
    const imported = await importFirstParty(docker.package, [io.cwd]);
    if (imported.status === 'missing') {
      io.stdout.write(`nothing to prune: ${docker.package} is not installed, and the local sandbox leaves nothing behind (its processes end with their hooks)\n`);
      return 0;
    }
    const prune = docker.prune === undefined ? undefined : loadedExport(imported, docker.package, docker.prune);
    if (typeof prune !== 'function') {
      throw new CliError('HOOKLINE_CLI_PLUGIN_BROKEN', `${docker.package} does not export ${docker.prune ?? 'a prune function'}(); install a version that matches @hookline/cli.`);
    }
    const removed: unknown = await (prune as () => Promise<unknown>)();
    const count = Array.isArray(removed) ? removed.length : typeof removed === 'number' ? removed : undefined;
    io.stdout.write(count === undefined ? 'pruned leftover sandboxes\n' : `removed ${count} leftover ${count === 1 ? 'sandbox' : 'sandboxes'}\n`);
    return 0;
  },
};
