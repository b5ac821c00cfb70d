import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { sandbox } from '../command-specs.ts';
import { FIRST_PARTY_SANDBOXES } from '../plugins/first-party-packages.ts';
import { importFirstParty, loadedExport } from '../plugins/load-first-party.ts';
import { terminalText } from '../output/terminal-text.ts';

/** What the docker provider's prune reports (structurally; the CLI does not import its types). */
interface PruneReport {
  readonly removed?: readonly unknown[];
  readonly kept?: readonly unknown[];
  readonly failed?: ReadonlyArray<{ readonly id?: string; readonly error: string }>;
}

/** `hookline sandbox prune`: the docker provider's leftover cleanup, when that provider is installed. */
export const sandboxCommand = {
  // The one subcommand, prune, is all its declaration accepts.
  async run({ values }, io) {
    const docker = FIRST_PARTY_SANDBOXES['docker']!;
    const imported = await importFirstParty(docker.package, [io.cwd]);
    if (imported.status === 'missing') {
      io.stdout.write(
        `nothing to prune: ${docker.package} is not installed, and the local sandbox leaves nothing behind (its processes end with their hooks)\n`,
      );
      return 0;
    }
    const prune = docker.prune === undefined ? undefined : loadedExport(imported, docker.package, docker.prune);
    if (typeof prune !== 'function') {
      throw new CliError(
        'HOOKLINE_CLI_PLUGIN_BROKEN',
        `${docker.package} does not export ${docker.prune ?? 'a prune function'}(); install a version that matches @hookline/cli.`,
      );
    }
    const report = (await (prune as (settings: object, options: object) => Promise<unknown>)(
      {},
      { includeOtherHosts: values['all-hosts'] === true },
    )) as PruneReport;
    const count = (list: readonly unknown[] | undefined, noun: string): string =>
      `${list?.length ?? 0} ${noun}${list?.length === 1 ? '' : 's'}`;
    io.stdout.write(
      `removed ${count(report.removed, 'leftover container')}, kept ${count(report.kept, 'container')} of live runs\n`,
    );
    for (const failure of report.failed ?? [])
      io.stderr.write(
        `hookline: ${terminalText(`could not remove ${failure.id ?? 'a container'}: ${failure.error}`)}\n`,
      );
    if ((report.failed?.length ?? 0) > 0) return 1;
    return 0;
  },
} satisfies CommandModule<typeof sandbox>;
