import { findAgent } from '../agents/find-agent.ts';
import { bridgeCommandLine, isBridgeCommand } from '../agents/bridge-command-line.ts';
import { onPath } from '../agents/on-path.ts';
import { readSettingsFile, settingsPath } from '../agents/settings-file.ts';
import { displayPath, writeSettingsChange } from '../agents/write-settings-change.ts';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { install } from '../command-specs.ts';

// The agent's timeout of an entry is this much above the bridge's deadline: the bridge answers first.
const TIMEOUT_MARGIN_SECONDS = 5;

/** `hookline install <agent>`: the bridge's entries merged into the agent's settings. */
export const installCommand = {
  async run({ values, positionals }, io) {
    const adapter = findAgent(positionals.agent);
    const deadlineSeconds = values.deadline === undefined ? undefined : positiveSeconds(values.deadline);
    const command = values.command ?? 'hookline';
    const line = bridgeCommandLine(adapter, {
      command,
      configFiles: values.config ?? [],
      preset: values.preset,
      deadlineSeconds,
    });
    const file = readSettingsFile(settingsPath(adapter, values.user === true, io));
    // Entries of an earlier install with other options are replaced, not added next to them.
    const others = (existing: string) => existing !== line && isBridgeCommand(adapter, existing);
    const timeoutSeconds = Math.ceil((deadlineSeconds ?? adapter.bridgeDeadlineMs / 1000) + TIMEOUT_MARGIN_SECONDS);
    const data = adapter.settings.addEntries(adapter.settings.removeEntries(file.data, others), {
      command: () => line,
      timeoutSeconds,
    });
    const change = writeSettingsChange(file, data, values['dry-run'] === true, io);
    const where = displayPath(file.path, io);
    if (change.kind === 'unchanged')
      io.stdout.write(`${adapter.title}: the Hookline bridge is already in ${where}; nothing changed.\n`);
    if (change.kind === 'written')
      io.stdout.write(
        `${adapter.title}: the Hookline bridge (\`${line}\`, timeout ${timeoutSeconds} s) is in ${where} for ${adapter.settings.events.length} events${change.backup === undefined ? '' : `; the previous file is ${displayPath(change.backup, io)}`}.\nCheck it with: hookline doctor ${adapter.name}\n`,
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
