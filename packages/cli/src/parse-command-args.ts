import util from 'node:util';
import { messageOf } from '@hookline/core';
import { CliError } from './cli-error.ts';
import type { CommandSpec, OptionSpec } from './command.ts';

/** A command's arguments as its declaration reads them. */
export interface ParsedCommandArgs {
  readonly help: boolean;
  readonly values: Readonly<Record<string, string | boolean | Array<string | boolean> | undefined>>;
  /** By the positional's declared name; an optional one not given is absent. */
  readonly positionals: Readonly<Record<string, string>>;
}

/**
 * Parses one command's arguments as its declaration says: strictly, as `node:util`'s `parseArgs`
 * does (an unknown option is an error; plain arguments are read here without loading it), then its positionals — each one there unless optional, one of
 * its choices when it has some, none left over. Every error is a usage message that points at the
 * command's help.
 */
export function parseCommandArgs(command: string, spec: CommandSpec, args: readonly string[]): ParsedCommandArgs {
  const options = { ...spec.options, help: { type: 'boolean', short: 'h' } } as const;
  let parsed: Parsed | undefined = parsePlainArgs(args, options);
  if (parsed === undefined) {
    try {
      // util.parseArgs, read here: Node loads its parser when the property is first read.
      parsed = util.parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    } catch (error) {
      throw usageError(command, messageOf(error).replace(/\.$/, ''), error);
    }
  }
  const { values, positionals: given } = parsed;
  if (values['help'] === true) return { help: true, values, positionals: {} };
  const positionals: Record<string, string> = {};
  for (const [index, positional] of spec.positionals.entries()) {
    const value = given[index];
    if (
      positional.choices !== undefined &&
      (value === undefined ? positional.optional !== true : !positional.choices.includes(value))
    ) {
      const choices = positional.choices.map((choice, at) => `\`${at === 0 ? `hookline ${command} ` : ''}${choice}\``);
      const listed = choices.length === 1 ? choices[0] : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `name one ${positional.name}: ${listed}${value === undefined ? '' : ` (got "${value}")`}.`,
      );
    }
    if (value !== undefined) positionals[positional.name] = value;
  }
  const missing = spec.positionals.filter(
    (positional) => positional.optional !== true && positionals[positional.name] === undefined,
  );
  if (missing.length > 0)
    throw usageError(
      command,
      `\`hookline ${command}\` needs ${missing.map((positional) => `<${positional.name}>`).join(' ')}`,
    );
  if (given.length > spec.positionals.length)
    throw usageError(command, `unexpected argument "${given[spec.positionals.length]}" for \`hookline ${command}\``);
  return { help: false, values, positionals };
}

type Parsed = Pick<ReturnType<typeof util.parseArgs>, 'values' | 'positionals'>;

/**
 * What `parseArgs` (strict, positionals allowed) returns for the arguments people write — `--name
 * value`, `--name=value`, `-c value`, flags, positionals — without loading Node's parser (part of
 * every command's start). Anything else (an unknown or misused option, `--`, grouped short flags, a
 * value that looks like an option) gives undefined: `parseArgs` then reads it, or says what is wrong.
 */
function parsePlainArgs(
  args: readonly string[],
  options: Readonly<Record<string, Pick<OptionSpec, 'type' | 'short' | 'multiple'>>>,
): Parsed | undefined {
  const values: Parsed['values'] = Object.create(null) as Parsed['values'];
  const positionals: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg.length < 2 || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    let name: string | undefined;
    let value: string | undefined;
    if (arg.startsWith('--')) {
      name = arg.slice(2, equals === -1 ? undefined : equals);
      if (equals !== -1) value = arg.slice(equals + 1);
    } else if (arg.length === 2) {
      name = Object.keys(options).find((long) => options[long]!.short === arg[1]);
    }
    const option = name === undefined || name === '' || !Object.hasOwn(options, name) ? undefined : options[name];
    if (option === undefined || name === undefined) return undefined;
    if (option.type === 'boolean') {
      if (value !== undefined) return undefined;
      store(values, name, true, option.multiple === true);
      continue;
    }
    if (value === undefined) {
      value = args[++index];
      // Missing, or `--config --json`: parseArgs's error says so.
      if (value === undefined || (value.length > 1 && value.startsWith('-'))) return undefined;
    }
    store(values, name, value, option.multiple === true);
  }
  return { values, positionals };
}

function store(values: Parsed['values'], name: string, value: string | boolean, multiple: boolean): void {
  const previous = values[name];
  values[name] = multiple ? [...(Array.isArray(previous) ? previous : []), value] : value;
}

function usageError(command: string, message: string, cause?: unknown): CliError {
  return new CliError(
    'HOOKLINE_CLI_USAGE',
    `${message}; see \`hookline ${command} --help\`.`,
    cause === undefined ? undefined : { cause },
  );
}
