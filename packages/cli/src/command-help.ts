import type { CommandSpec, OptionSpec } from './command.ts';
import { contextDefaultsHelp } from './context/context-defaults-help.ts';

// Where option help starts: room for `-c, --config FILE` and `--max-line-bytes N`, and two spaces.
const LABEL_WIDTH = 18;
const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', help: 'show this help' };

/** `hookline <command> --help`, from the command's declaration: usage, description, options, epilog. */
export function commandHelp(command: string, spec: CommandSpec): string {
  const options = Object.entries({ ...spec.options, help: HELP_OPTION });
  const labels = options.map(
    ([name, option]) =>
      `${option.short === undefined ? '' : `-${option.short}, `}--${name}${option.value === undefined ? '' : ` ${option.value}`}`,
  );
  const width = Math.max(LABEL_WIDTH, ...labels.map((label) => label.length));
  const lines = options.map(([, option], index) => {
    const [first, ...more] = option.help.split('\n');
    return [
      `  ${labels[index]!.padEnd(width)}  ${first}`,
      ...more.map((line) => `${' '.repeat(width + 4)}${line}`),
    ].join('\n');
  });
  const epilog =
    typeof spec.epilog === 'function' ? spec.epilog({ contextDefaults: contextDefaultsHelp() }) : spec.epilog;
  return `Usage: ${commandUsage(command, spec)}

${spec.description}

Options:
${lines.join('\n')}
${epilog === undefined ? '' : `\n${epilog}`}`;
}

/** `hookline emit <event> [--context FILE|-] [--set key=value]... …`: the positionals, then every option. */
export function commandUsage(command: string, spec: CommandSpec): string {
  const positionals = spec.positionals.map((positional) => {
    const word =
      positional.choices?.join('|') ?? (positional.optional === true ? positional.name : `<${positional.name}>`);
    return positional.optional === true ? `[${word}]` : word;
  });
  const options = Object.entries(spec.options).map(
    ([name, option]) =>
      `[--${name}${option.value === undefined ? '' : ` ${option.value}`}]${option.multiple === true ? '...' : ''}`,
  );
  return ['hookline', command, ...positionals, ...options].join(' ');
}
