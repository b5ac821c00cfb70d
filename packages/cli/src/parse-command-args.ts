import { parseArgs } from 'node:util';
import { messageOf } from '@hookline/core';
import { CliError } from './cli-error.ts';
import type { CommandSpec } from './command.ts';

/** A command's arguments as its declaration reads them. */
export interface ParsedCommandArgs {
  readonly help: boolean;
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  /** By the positional's declared name; an optional one not given is absent. */
  readonly positionals: Readonly<Record<string, string>>;
}

/**
 * Parses one command's arguments as its declaration says: strictly, with `node:util`'s `parseArgs`
 * (an unknown option is an error), then its positionals — each one there unless optional, one of
 * its choices when it has some, none left over. Every error is a usage message that points at the
 * command's help.
 */
export function parseCommandArgs(command: string, spec: CommandSpec, args: readonly string[]): ParsedCommandArgs {
  const options = { ...spec.options, help: { type: 'boolean', short: 'h' } } as const;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(command, messageOf(error).replace(/\.$/, ''), error);
  }
  const { values, positionals: given } = parsed;
  if (values['help'] === true) return { help: true, values, positionals: {} };
  const positionals: Record<string, string> = {};
  for (const [index, positional] of spec.positionals.entries()) {
    const value = given[index];
    if (positional.choices !== undefined && (value === undefined ? positional.optional !== true : !positional.choices.includes(value))) {
      const choices = positional.choices.map((choice, at) => `\`${at === 0 ? `hookline ${command} ` : ''}${choice}\``);
      const listed = choices.length === 1 ? choices[0] : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
      throw new CliError('HOOKLINE_CLI_USAGE', `name one ${positional.name}: ${listed}${value === undefined ? '' : ` (got "${value}")`}.`);
    }
    if (value !== undefined) positionals[positional.name] = value;
  }
  const missing = spec.positionals.filter((positional) => positional.optional !== true && positionals[positional.name] === undefined);
  if (missing.length > 0) throw usageError(command, `\`hookline ${command}\` needs ${missing.map((positional) => `<${positional.name}>`).join(' ')}`);
  if (given.length > spec.positionals.length) throw usageError(command, `unexpected argument "${given[spec.positionals.length]}" for \`hookline ${command}\``);
  return { help: false, values, positionals };
}

function usageError(command: string, message: string, cause?: unknown): CliError {
  return new CliError('HOOKLINE_CLI_USAGE', `${message}; see \`hookline ${command} --help\`.`, cause === undefined ? undefined : { cause });
}
