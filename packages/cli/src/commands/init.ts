import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_PRESET, presets } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { init } from '../command-table.ts';
import { agentStarter } from '../agent-starter.ts';
import { claudeStarter } from '../claude-starter.ts';
import { starterConfig } from '../starter-config.ts';
import { taskStarter } from '../task-starter.ts';
import { terminalText } from '../output/terminal-text.ts';

// A remote's name goes into shell lines: only the characters git allows in practice, no quoting needed.
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** `hookline init`: a starter hookline.toml (SPEC §13). */
export const initCommand = {
  async run({ values, positionals: { FILE: file } }, io) {
    const preset = values.preset ?? DEFAULT_PRESET;
    // Claude Code reads its project settings from .claude/settings.json; every other preset, hookline.toml.
    const label = file ?? (preset === 'claude' ? join('.claude', 'settings.json') : 'hookline.toml');
    const text = starterFor(preset, values.remote);
    try {
      mkdirSync(dirname(resolve(io.cwd, label)), { recursive: true });
      // 'wx' fails if the file exists, atomically: no window between a check and the write.
      writeFileSync(resolve(io.cwd, label), text, { flag: values.force === true ? 'w' : 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new CliError('HOOKLINE_CLI_FILE_EXISTS', `${label} already exists; leaving it alone. Use --force to overwrite it.`);
      throw new CliError('HOOKLINE_CLI_WRITE_FAILED', `cannot write ${label} (${code ?? String(error)}).`, { cause: error });
    }
    if (io.quiet !== true) io.stdout.write(`wrote ${terminalText(label)} — check it with \`hookline validate\`, try it with \`hookline emit ${TRY_EVENT[preset]}\`\n`);
    return 0;
  },
} satisfies CommandModule<typeof init>;

const TRY_EVENT: Readonly<Record<string, string>> = { arc: 'run_start', task: 'after_merge --set task=…', agent: 'post_tool_use --set tool_name=FileWrite', claude: 'PreToolUse --set tool_name=Bash --set \'tool_input={"command":"ls"}\'' };

function starterFor(preset: string, remote: string | undefined): string {
  if (remote !== undefined && preset !== 'task') throw new CliError('HOOKLINE_CLI_USAGE', '--remote is for --preset task only.');
  if (preset === 'task') {
    const name = remote ?? 'origin';
    if (!REMOTE_NAME.test(name)) throw new CliError('HOOKLINE_CLI_USAGE', `--remote ${JSON.stringify(name)} is not a git remote name; use letters, digits, ".", "_", "-" and "/".`);
    return taskStarter(name);
  }
  if (preset === 'agent') return agentStarter();
  if (preset === 'claude') return claudeStarter();
  if (preset === DEFAULT_PRESET) return starterConfig(presets[DEFAULT_PRESET]!);
  const known = Object.keys(presets).filter((name) => Object.hasOwn(TRY_EVENT, name));
  const note = Object.hasOwn(presets, preset) ? `preset "${preset}" has no starter yet` : `unknown preset "${preset}"`;
  throw new CliError('HOOKLINE_CLI_USAGE', `${note}; --preset takes ${known.join(', ')}.`);
}
