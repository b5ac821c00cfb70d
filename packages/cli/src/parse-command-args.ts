import { parseArgs, type ParseArgsConfig } from 'node:util';
import { messageOf } from '@hookline/core';
import { CliError } from './cli-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `--config FILE`, repeatable, and `--preset NAME` (read the files as that preset; with `claude` and
 * no `--config`, Claude Code's settings files): the options every config-reading command shares.
 */
export const configOption = { config: { type: 'string', short: 'c', multiple: true }, preset: { type: 'string' } } as const satisfies Options;

/** The help line of `--preset`, the same in every command. */
export const PRESET_HELP = `  --preset NAME       read the config as preset NAME (arc, task, agent, claude) instead of
                      its preset = … or what it looks like; with claude and no --config:
                      ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json`;
/** `--help`: every command takes it. */
export const helpOption = { help: { type: 'boolean', short: 'h' } } as const satisfies Options;

/**
 * Parses one command's arguments strictly (unknown options are errors) with `node:util`'s
 * `parseArgs`, turning its errors into a usage message that points at the command's help.
 */
export function parseCommandArgs<T extends Options>(command: string, args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = messageOf(error);
    throw new CliError('HOOKLINE_CLI_USAGE', `${message.replace(/\.$/, '')}; see \`hookline ${command} --help\`.`, { cause: error });
  }
}

/** Fails with a usage message unless exactly `count` positionals were given. */
export function expectPositionals(command: string, positionals: readonly string[], names: readonly string[]): void {
  if (positionals.length < names.length) {
    throw new CliError('HOOKLINE_CLI_USAGE', `\`hookline ${command}\` needs ${names.map((name) => `<${name}>`).join(' ')}; see \`hookline ${command} --help\`.`);
  }
  if (positionals.length > names.length) {
    throw new CliError('HOOKLINE_CLI_USAGE', `unexpected argument "${positionals[names.length]}" for \`hookline ${command}\`; see \`hookline ${command} --help\`.`);
  }
}
