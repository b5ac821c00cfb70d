import type { CliIo } from './cli-io.ts';
import type { CommandEntry } from './command-table.ts';
import type { Setup } from './config/load-setup.ts';
import { parseCommandArgs } from './parse-command-args.ts';

/**
 * Runs one command as its declaration says: parses its arguments (or prints its help), loads the
 * config and builds the event context when it declares them, prints their warnings, and hands all
 * that to the command's code. That code is imported meanwhile, so loading it overlaps the setup.
 */
export async function runCommand(command: string, entry: CommandEntry, args: readonly string[], io: CliIo): Promise<number> {
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
    const { loadSetup } = await import('./config/load-setup.ts');
    setup = await loadSetup({ configFiles: strings(values['config']), preset: text(values['preset']), cwd: io.cwd, env: io.env, runsHooks: spec.setup === 'run-hooks' });
    let warnings: readonly string[] = [];
    if (spec.context === true) {
      const [{ buildContext }, { presets }] = await Promise.all([import('./context/build-context.ts'), import('@hookline/core')]);
      const built = await buildContext({ file: text(values['context']), sets: strings(values['set']) }, presets[setup.config.preset]!, io);
      context = built.context;
      warnings = built.warnings;
    }
    const { printSetupWarnings } = await import('./print-warnings.ts');
    printSetupWarnings(setup, io, warnings);
  }
  return (await code).run({ values, positionals, ...(setup === undefined ? {} : { setup }), ...(context === undefined ? {} : { context }) }, io);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}
