import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_PRESET, HOOKLINE_CONFIG_FILES, presets, type PresetStarter } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { helpOption, parseCommandArgs } from '../parse-command-args.ts';
import { terminalText } from '../output/terminal-text.ts';

const options = { ...helpOption, force: { type: 'boolean', short: 'f' }, preset: { type: 'string', short: 'p' }, remote: { type: 'string' } } as const;

const help = `Usage: hookline init [FILE] [--preset arc|task|agent|claude] [--remote NAME] [--force]

Writes a commented starter config to FILE (default ./hookline.toml) for a preset:
  arc     (default) one harmless run_start hook and commented examples
  task    after_merge lines that delete the task's remote branch, worktree and local branch (each
          safe to run twice), and commented after_awaiting_human notifications
  agent   format-after-write and lint-after-edit hooks, a commented notification and guard
  claude  .claude/settings.json (the default FILE then) with a PreToolUse guard that refuses a
          recursive delete of / or the home folder
Refuses to replace an existing file unless --force is given.

Options:
  -p, --preset NAME   the preset to start from (default arc)
      --remote NAME   task: the git remote the task branches are pushed to (default origin)
  -f, --force         overwrite FILE if it exists
  -h, --help          show this help
`;

// A remote's name goes into shell lines: only the characters git allows in practice, no quoting needed.
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

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
    const preset = values.preset ?? DEFAULT_PRESET;
    // The preset's first project config file: .claude/settings.json for Claude Code, else hookline.toml.
    const projectFile = (presets[preset]?.configFiles ?? HOOKLINE_CONFIG_FILES).find((file) => file.under === 'project');
    const label = positionals[0] ?? join(...(projectFile?.path ?? 'hookline.toml').split('/'));
    const starter = starterOf(preset, values.remote);
    const text = starter.text({ remote: values.remote ?? starter.remote?.default ?? '' });
    try {
      mkdirSync(dirname(resolve(io.cwd, label)), { recursive: true });
      // 'wx' fails if the file exists, atomically: no window between a check and the write.
      writeFileSync(resolve(io.cwd, label), text, { flag: values.force === true ? 'w' : 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new CliError('HOOKLINE_CLI_FILE_EXISTS', `${label} already exists; leaving it alone. Use --force to overwrite it.`);
      throw new CliError('HOOKLINE_CLI_WRITE_FAILED', `cannot write ${label} (${code ?? String(error)}).`, { cause: error });
    }
    if (io.quiet !== true) io.stdout.write(`wrote ${terminalText(label)} — check it with \`hookline validate\`, try it with \`hookline emit ${starter.tryEmit}\`\n`);
    return 0;
  },
};

// The preset's starter (`Preset.starter`), after checking that --remote is one it takes.
function starterOf(preset: string, remote: string | undefined): PresetStarter {
  const starter = Object.hasOwn(presets, preset) ? presets[preset]!.starter : undefined;
  if (starter === undefined) {
    const known = Object.values(presets).filter((each) => each.starter !== undefined).map((each) => each.name);
    const note = Object.hasOwn(presets, preset) ? `preset "${preset}" has no starter yet` : `unknown preset "${preset}"`;
    throw new CliError('HOOKLINE_CLI_USAGE', `${note}; --preset takes ${known.join(', ')}.`);
  }
  if (remote !== undefined && starter.remote === undefined) {
    const taking = Object.values(presets).filter((each) => each.starter?.remote !== undefined).map((each) => each.name);
    throw new CliError('HOOKLINE_CLI_USAGE', `--remote is for --preset ${taking.join(', ')} only.`);
  }
  if (remote !== undefined && !REMOTE_NAME.test(remote)) {
    throw new CliError('HOOKLINE_CLI_USAGE', `--remote ${JSON.stringify(remote)} is not a git remote name; use letters, digits, ".", "_", "-" and "/".`);
  }
  return starter;
}
