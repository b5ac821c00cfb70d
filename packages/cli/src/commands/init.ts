import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_PRESET, HOOKLINE_CONFIG_FILES, presets, type PresetStarter } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { init } from '../command-specs.ts';
import { terminalText } from '../output/terminal-text.ts';

// A remote's name goes into shell lines: only the characters git allows in practice, no quoting needed.
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** `hookline init`: a starter hookline.toml. */
export const initCommand = {
  async run({ values, positionals: { FILE: file } }, io) {
    const preset = values.preset ?? DEFAULT_PRESET;
    // The preset's first project config file: .claude/settings.json for Claude Code, else hookline.toml.
    const projectFile = (presets[preset]?.configFiles ?? HOOKLINE_CONFIG_FILES).find((candidate) => candidate.under === 'project');
    const label = file ?? join(...(projectFile?.path ?? 'hookline.toml').split('/'));
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
} satisfies CommandModule<typeof init>;

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
