import { CliError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { FIRST_PARTY_SANDBOXES } from '../plugins/first-party-packages.ts';
import { importFirstParty, loadedExport } from '../plugins/load-first-party.ts';
import { helpOption, parseCommandArgs } from '../parse-command-args.ts';
import { terminalText } from '../output/terminal-text.ts';

const options = { ...helpOption, 'all-hosts': { type: 'boolean' } } as const;

const help = `Usage: hookline sandbox prune [--all-hosts]

Removes what crashed runs left behind in sandboxes. Docker containers of Hookline runs carry labels
naming their run and owner process; containers whose owner is gone are removed — when
@hookline/sandbox-docker is installed. The local sandbox leaves nothing to prune: its processes end
with their hooks.

Options:
  --all-hosts   also remove containers created from other machines sharing the engine (DOCKER_HOST)
  -h, --help    show this help
`;

/** What the docker provider's prune reports (structurally; the CLI does not import its types). */
interface PruneReport {
  readonly removed?: readonly unknown[];
  readonly kept?: readonly unknown[];
  readonly failed?: ReadonlyArray<{ readonly id?: string; readonly error: string }>;
}

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
    const report = (await (prune as (settings: object, options: object) => Promise<unknown>)({}, { includeOtherHosts: values['all-hosts'] === true })) as PruneReport;
    const count = (list: readonly unknown[] | undefined, noun: string): string => `${list?.length ?? 0} ${noun}${list?.length === 1 ? '' : 's'}`;
    io.stdout.write(`removed ${count(report.removed, 'leftover container')}, kept ${count(report.kept, 'container')} of live runs\n`);
    for (const failure of report.failed ?? []) io.stderr.write(`hookline: ${terminalText(`could not remove ${failure.id ?? 'a container'}: ${failure.error}`)}\n`);
    if ((report.failed?.length ?? 0) > 0) return 1;
    return 0;
  },
};
