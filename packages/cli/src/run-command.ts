import type { CliIo } from './cli-io.ts';
import type { CommandEntry } from './command-table.ts';
import { loadSetup, type Setup } from './config/load-setup.ts';
import { buildContext } from './context/build-context.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { printSetupWarnings } from './print-warnings.ts';

// Imported by main when a command runs (not for `hookline --help`): what the commands that read a
// config share is loaded in one go with it, while the command's own code loads alongside the setup.

/**
 * Runs one command as its declaration says: parses its arguments (or prints its help), loads the
 * config and builds the event context when it declares them, prints their warnings, and hands all
 * that to the command's code. That code is imported meanwhile, so loading it overlaps the setup.
 */
export async function runCommand(
  command: string,
  entry: CommandEntry,
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const { spec } = entry;
  const { help, values, positionals } = parseCommandArgs(command, spec, args);
  if (help) {
    const { commandHelp } = await import('./command-help.ts');
    io.stdout.write(commandHelp(command, spec));
    return 0;
  }
  const code = entry.load();
  // Awaited below; a setup that fails first must not leave its rejection unhandled.
  code.catch(() => undefined);
  let setup: Setup | undefined;
  let context: Record<string, unknown> | undefined;
  if (spec.setup !== undefined) {
    try {
      setup = await loadSetup({
        configFiles: strings(values['config']),
        preset: text(values['preset']),
        cwd: io.cwd,
        env: io.env,
        runsHooks: spec.setup === 'run-hooks',
      });
    } catch (error) {
      if (spec.blocksWhenConfigFails !== true) throw error;
      const { blockForUnloadableConfig } = await import('./config/block-for-unloadable-config.ts');
      const code = await blockForUnloadableConfig(
        error,
        { event: text(positionals['event']), preset: text(values['preset']), json: values['json'] === true },
        io,
      );
      if (code === undefined) throw error;
      return code;
    }
    let warnings: readonly string[] = [];
    if (spec.context === true) {
      const built = await buildContext(
        { file: text(values['context']), sets: strings(values['set']) },
        setup.presets.get(setup.config.preset)!,
        io,
      );
      context = built.context;
      warnings = built.warnings;
    }
    printSetupWarnings(setup, io, warnings);
  }
  return (await code).run(
    { values, positionals, ...(setup === undefined ? {} : { setup }), ...(context === undefined ? {} : { context }) },
    io,
  );
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}
