import { processIo, type CliIo } from './cli-io.ts';
import { COMMANDS } from './command-table.ts';
import { nodeFlagsRestart } from './node-flags-restart.ts';

// Only what every run needs is imported here; the rest loads when its path is taken (startup time).

/**
 * Runs `hookline <command> …` and resolves to the exit code: 0, 2 when an emitted event is blocked,
 * 1 for errors (printed to stderr with what to do). Never throws.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const quiet = argv.includes('-q') || argv.includes('--quiet') ? await import('./quiet-io.ts') : undefined;
  if (quiet !== undefined) {
    const taken = quiet.takeQuiet(argv);
    if (taken.quiet) return main(taken.argv, quiet.quietIo(io));
  }
  try {
    const [first, ...rest] = argv;
    if (first === undefined || first === '--help' || first === '-h') {
      io.stdout.write(topLevelHelp());
      return first === undefined ? 1 : 0;
    }
    if (first === '--version' || first === '-v') {
      const { cliVersion } = await import('./version.ts');
      io.stdout.write(`${cliVersion()}\n`);
      return 0;
    }
    if (first === 'help') {
      if (rest[0] === undefined) {
        io.stdout.write(topLevelHelp());
        return 0;
      }
      return await runNamed(rest[0], ['--help'], io);
    }
    return await runNamed(first, rest, io);
  } catch (error) {
    // Script hooks need Node flags this process lacks and no script host serves: the same command
    // again with them (runner-script restarts it), before any hook ran and before stdin was read.
    const restart = nodeFlagsRestart(error);
    if (restart !== undefined) {
      if (restart.note !== undefined) io.stderr.write(`hookline: ${restart.note}\n`);
      return restart.restart(argv);
    }
    const { reportError } = await import('./report-error.ts');
    return reportError(error, io);
  }
}

async function runNamed(name: string, args: readonly string[], io: CliIo): Promise<number> {
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    const { nearestWord } = await import('@hookline/core');
    const near = nearestWord(name, Object.keys(COMMANDS));
    const hint = near === undefined ? '' : ` — did you mean \`hookline ${near}\`?`;
    const { CliError } = await import('./cli-error.ts');
    throw new CliError('HOOKLINE_CLI_USAGE', `unknown command "${name}"${hint} Run \`hookline --help\` for the list.`);
  }
  const { runCommand } = await import('./run-command.ts');
  return runCommand(name, entry, args, io);
}

function topLevelHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const commands = Object.entries(COMMANDS)
    .map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.spec.summary}`)
    .join('\n');
  return `Usage: hookline <command> [options]

Hookline runs the hooks attached to lifecycle events and prints one merged decision.

Commands:
${commands}

Options:
  -h, --help      show help (also: hookline <command> --help, hookline help <command>)
  -v, --version   print the version
  -q, --quiet     no summary and no warnings: errors (and --json, run, list, schema output) only

Config: --config FILE (repeatable), else $XDG_CONFIG_HOME/hookline/hookline.toml then ./hookline.toml.
Exit codes: 0 ok, 2 the emitted event was blocked, 1 error (the message says what to do).
`;
}
