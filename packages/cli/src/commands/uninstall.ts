import { findAgent } from '../agents/find-agent.ts';
import { nothingButSkeleton } from '../agents/nothing-but-skeleton.ts';
import { isBridgeCommand } from '../agents/bridge-command-line.ts';
import { readSettingsFile, removeSettingsFile, settingsPath, settingsText } from '../agents/settings-file.ts';
import { displayPath, writeSettingsChange } from '../agents/write-settings-change.ts';
import type { CommandModule } from '../command.ts';
import type { uninstall } from '../command-specs.ts';

/** `hookline uninstall <agent>`: the bridge's entries removed, everything else kept. */
export const uninstallCommand = {
  async run({ values, positionals }, io) {
    const adapter = findAgent(positionals.agent).agent;
    const file = readSettingsFile(settingsPath(adapter, values.user === true, io));
    const where = displayPath(file.path, io);
    if (file.text === undefined) {
      io.stdout.write(`${adapter.title}: ${where} does not exist; nothing to remove.\n`);
      return 0;
    }
    const data = adapter.settings.removeEntries(file.data, (command) => isBridgeCommand(adapter, command));
    const text = file.text;
    // Only Hookline's entries were in it: the file goes, rather than staying as an empty skeleton.
    if (settingsText(data) !== settingsText(file.data) && nothingButSkeleton(adapter, data)) {
      if (values['dry-run'] === true) {
        io.stdout.write(`${adapter.title}: ${where} holds nothing but Hookline's entries; it would be deleted.\n`);
        return 0;
      }
      const backup = removeSettingsFile({ ...file, text });
      io.stdout.write(
        `${adapter.title}: the Hookline bridge was removed, and ${where} held nothing else, so it was deleted; the previous file is ${displayPath(backup, io)}.\n`,
      );
      return 0;
    }
    const change = writeSettingsChange(file, data, values['dry-run'] === true, io);
    if (change.kind === 'unchanged')
      io.stdout.write(`${adapter.title}: ${where} has no Hookline entry; nothing changed.\n`);
    if (change.kind === 'written')
      io.stdout.write(
        `${adapter.title}: the Hookline bridge was removed from ${where}${change.backup === undefined ? '' : `; the previous file is ${displayPath(change.backup, io)}`}.\n`,
      );
    return 0;
  },
} satisfies CommandModule<typeof uninstall>;
