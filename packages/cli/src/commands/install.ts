import { findAgent } from '../agents/find-agent.ts';
import { bridgeCommandLine, isBridgeCommand } from '../agents/bridge-command-line.ts';
import { onPath } from '../agents/on-path.ts';
import { readSettingsFile, settingsPath } from '../agents/settings-file.ts';
import { displayPath, writeSettingsChange } from '../agents/write-settings-change.ts';
import { eventsToInstall } from '../agents/events-to-install.ts';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { install } from '../command-specs.ts';

// The agent's timeout of an entry is this much above the bridge's deadline: the bridge answers first.
const TIMEOUT_MARGIN_SECONDS = 5;

/** `hookline install <agent>`: the bridge's entries merged into the agent's settings. */
export const installCommand = {
  async run({ values, positionals }, io) {
    const owner = findAgent(positionals.agent);
    const adapter = owner.agent;
    const deadlineSeconds = values.deadline === undefined ? undefined : positiveSeconds(values.deadline);
    const command = values.command ?? 'hookline';
    const bridgeLine = bridgeCommandLine(adapter, {
      command,
      configFiles: values.config ?? [],
      preset: values.preset,
      deadlineSeconds,
    });
    const deadline = deadlineSeconds ?? adapter.bridgeDeadlineMs / 1000;
    const shim =
      values.daemon === true
        ? await (
            await import('../serve/install-daemon-shim.ts')
          ).installDaemonShim(adapter, {
            bridgeLine,
            deadlineSeconds: deadline,
            configFiles: values.config ?? [],
            preset: values.preset,
            dryRun: values['dry-run'] === true,
            io,
          })
        : undefined;
    const line = shim?.command ?? bridgeLine;
    const file = readSettingsFile(settingsPath(adapter, values.user === true, io));
    const chosen =
      values['all-events'] === true
        ? { events: adapter.settings.events }
        : await eventsToInstall(owner, { files: values.config ?? [], preset: values.preset }, io);
    if (chosen.events.length === 0)
      throw new CliError(
        'HOOKLINE_CLI_NOTHING_TO_INSTALL',
        `no hook of the config is for an event ${adapter.title} has, so no entry was written; add hooks (\`hookline init --preset agent\`), or install an entry for every event with --all-events.`,
      );
    // An earlier install's entries (other options, other events) are replaced, not added next to.
    // Through the shim, the daemon may use up its wait before the bridge runs: both fit in the timeout.
    const timeoutSeconds = Math.ceil((shim?.waitSeconds ?? 0) + deadline + TIMEOUT_MARGIN_SECONDS);
    const data = adapter.settings.addEntries(
      adapter.settings.removeEntries(file.data, (existing) => isBridgeCommand(adapter, existing)),
      { command: () => line, timeoutSeconds },
      chosen.events,
    );
    const change = writeSettingsChange(file, data, values['dry-run'] === true, io);
    const where = displayPath(file.path, io);
    if (change.kind === 'unchanged')
      io.stdout.write(`${adapter.title}: the Hookline bridge is already in ${where}; nothing changed.\n`);
    if (change.kind === 'written')
      io.stdout.write(
        `${adapter.title}: the Hookline bridge (\`${line}\`${adapter.settings.entriesTakeTimeout === false ? '' : `, timeout ${timeoutSeconds} s`}) is in ${where} for ${chosen.events.join(', ')}${chosen.allBecause === undefined ? ' (the events the config has hooks for; install again after adding hooks for others)' : ` (every event: ${chosen.allBecause})`}${change.backup === undefined ? '' : `; the previous file is ${displayPath(change.backup, io)}`}.\nCheck it with: hookline doctor ${adapter.name}\n`,
      );
    if (values.command === undefined && !onPath('hookline', io.env))
      io.stderr.write(
        `warning: \`hookline\` is not on this PATH, so ${adapter.title} may not find it: install @hookline/cli globally, or give the command with --command (e.g. --command "npx hookline").\n`,
      );
    return 0;
  },
} satisfies CommandModule<typeof install>;

function positiveSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError('HOOKLINE_CLI_USAGE', `--deadline must be a positive number of seconds, not "${value}"`);
  return seconds;
}
