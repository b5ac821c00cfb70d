import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  builtInPresets,
  HOOKLINE_CONFIG_FILES,
  messageOf,
  type PresetRegistry,
  type PresetStarter,
} from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { init } from '../command-specs.ts';
import { terminalText } from '../output/terminal-text.ts';
import { importModule } from '../plugins/import-module.ts';
import { pluginExports } from '../plugins/plugin-exports.ts';

// A remote's name goes into shell lines: only the characters git allows in practice, no quoting needed.
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** `hookline init`: a starter hookline.toml. */
export const initCommand = {
  async run({ values, positionals: { FILE: file } }, io) {
    const presets = await withPluginPresets(values.plugin ?? [], io.cwd);
    const preset = values.preset ?? presets.fallback.name;
    // The preset's first project config file: .claude/settings.json for Claude Code, else hookline.toml.
    const projectFile = (presets.get(preset)?.configFiles ?? HOOKLINE_CONFIG_FILES).find(
      (candidate) => candidate.under === 'project',
    );
    const label = file ?? join(...(projectFile?.path ?? 'hookline.toml').split('/'));
    const starter = starterOf(presets, preset, values.remote);
    const text = starter.text({ remote: values.remote ?? starter.remote?.default ?? '' });
    try {
      mkdirSync(dirname(resolve(io.cwd, label)), { recursive: true });
      // 'wx' fails if the file exists, atomically: no window between a check and the write.
      writeFileSync(resolve(io.cwd, label), text, { flag: values.force === true ? 'w' : 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST')
        throw new CliError(
          'HOOKLINE_CLI_FILE_EXISTS',
          `${label} already exists; leaving it alone. Use --force to overwrite it.`,
        );
      throw new CliError('HOOKLINE_CLI_WRITE_FAILED', `cannot write ${label} (${code ?? String(error)}).`, {
        cause: error,
      });
    }
    if (io.quiet !== true)
      io.stdout.write(
        `wrote ${terminalText(label)} — check it with \`hookline validate\`, try it with \`hookline emit ${starter.tryEmit}\`\n`,
      );
    return 0;
  },
} satisfies CommandModule<typeof init>;

// The preset's starter (`Preset.starter`), after checking that --remote is one it takes.
function starterOf(presets: PresetRegistry, preset: string, remote: string | undefined): PresetStarter {
  const starter = presets.get(preset)?.starter;
  if (starter === undefined) {
    const known = presets.all.filter((each) => each.starter !== undefined).map((each) => each.name);
    const note =
      presets.get(preset) !== undefined ? `preset "${preset}" has no starter yet` : `unknown preset "${preset}"`;
    throw new CliError('HOOKLINE_CLI_USAGE', `${note}; --preset takes ${known.join(', ')}.`);
  }
  if (remote !== undefined && starter.remote === undefined) {
    const taking = presets.all.filter((each) => each.starter?.remote !== undefined).map((each) => each.name);
    throw new CliError('HOOKLINE_CLI_USAGE', `--remote is for --preset ${taking.join(', ')} only.`);
  }
  if (remote !== undefined && !REMOTE_NAME.test(remote)) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `--remote ${JSON.stringify(remote)} is not a git remote name; use letters, digits, ".", "_", "-" and "/".`,
    );
  }
  return starter;
}

// The built-in presets and those of the --plugin packages, found as `plugins = [...]` finds them.
async function withPluginPresets(names: readonly string[], cwd: string): Promise<PresetRegistry> {
  const found = [];
  for (const name of names) {
    const imported = await importModule(name, [cwd]);
    if (imported.status === 'missing')
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `plugin "${name}" is not installed: ${imported.reason}; install it here (npm install ${name}).`,
      );
    if (imported.status === 'failed')
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `plugin "${name}" failed to load: ${messageOf(imported.error)}; reinstall it or report it to its authors.`,
      );
    const offered = pluginExports(imported.exports);
    const problems = [...offered.broken, ...offered.mismatched];
    if (problems.length > 0)
      throw new CliError('HOOKLINE_CLI_USAGE', `plugin "${name}": its ${problems.join('; its ')}.`);
    if (offered.presets.length === 0)
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `plugin "${name}" offers no preset; --plugin is for packages that export one (definePreset).`,
      );
    found.push(...offered.presets);
  }
  return builtInPresets.with(found);
}
