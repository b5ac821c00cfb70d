import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PRESET, presets } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { helpOption, parseCommandArgs } from '../parse-command-args.ts';
import { starterConfig } from '../starter-config.ts';
import { terminalText } from '../output/terminal-text.ts';

const options = { ...helpOption, force: { type: 'boolean', short: 'f' } } as const;

const help = `Usage: hookline init [FILE] [--force]

Writes a commented starter config to FILE (default ./hookline.toml): one harmless run_start hook and
commented examples. Refuses to replace an existing file unless --force is given.

Options:
  -f, --force   overwrite FILE if it exists
  -h, --help    show this help
`;

/** `hookline init`: a starter hookline.toml (SPEC §13). */
export const initCommand: Command = {
  help,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('init', args, options);
    if (values.help === true) {
      io.stdout.write(help);
      return 0;
    }
    if (positionals.length > 1) throw new CliError('HOOKLINE_CLI_USAGE', `unexpected argument "${positionals[1]}"; see \`hookline init --help\`.`);
    const label = positionals[0] ?? 'hookline.toml';
    try {
      // 'wx' fails if the file exists, atomically: no window between a check and the write.
      writeFileSync(resolve(io.cwd, label), starterConfig(presets[DEFAULT_PRESET]!), { flag: values.force === true ? 'w' : 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new CliError('HOOKLINE_CLI_FILE_EXISTS', `${label} already exists; leaving it alone. Use --force to overwrite it.`);
      throw new CliError('HOOKLINE_CLI_WRITE_FAILED', `cannot write ${label} (${code ?? String(error)}).`, { cause: error });
    }
    io.stdout.write(`wrote ${terminalText(label)} — check it with \`hookline validate\`, try it with \`hookline emit run_start\`\n`);
    return 0;
  },
};
