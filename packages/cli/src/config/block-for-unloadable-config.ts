import { builtInPresets, ConfigError, formatConfigIssue, HooklineError, type Preset } from '@hookline/core';
import type { CliIo } from '../cli-io.ts';
import { terminalText } from '../output/terminal-text.ts';

/** What the command was asked to do. */
export interface BlockRequest {
  /** The `<event>` argument. */
  readonly event: string | undefined;
  /** `--preset`, when given. */
  readonly preset: string | undefined;
  readonly json: boolean;
}

// Errors that mean "the config the user pointed at cannot be read": its text, or its files.
const UNREADABLE_FILE_CODES = ['HOOKLINE_CLI_CONFIG_NOT_FOUND', 'HOOKLINE_CLI_CONFIG_UNREADABLE'];

/**
 * A guard whose config cannot be loaded must not read as "go on". Agents read exit 1 as a
 * non-blocking error and carry on (Claude Code does), so for a guard event of an agent-facing preset
 * (`invalidHooks: "fail-when-selected"`: `claude`, `agent`) — one that blocks by default and whose
 * host honours a block — this answers block: exit 2, with the file, the problem and the fix on stderr,
 * where Claude Code reads the reason of an exit 2. The preset is `--preset`, else every preset whose
 * catalog has the event (the config that would tell is the one that cannot be read). `undefined`:
 * not such a case, the error is reported as usual (exit 1) — arc and task keep that, as documented.
 */
export async function blockForUnloadableConfig(
  error: unknown,
  request: BlockRequest,
  io: CliIo,
): Promise<number | undefined> {
  const problems = configProblems(error);
  if (problems === undefined || request.event === undefined) return undefined;
  const event = request.event;
  // The built-in presets only: a plugin's preset comes with a config, and this config could not be loaded.
  const named = request.preset === undefined ? undefined : builtInPresets.get(request.preset);
  const candidates: readonly Preset[] =
    request.preset === undefined ? builtInPresets.all : named === undefined ? [] : [named];
  const guards = candidates.some((preset) => {
    const spec = preset.events.find((candidate) => candidate.name === event);
    return (
      preset.invalidHooks === 'fail-when-selected' &&
      spec !== undefined &&
      spec.blocking &&
      spec.honours.includes('block')
    );
  });
  if (!guards) return undefined;
  const reason = `hookline blocked ${event}: its hook configuration cannot be loaded, so no guard could check this action. ${problems.join(' ')} Fix the configuration (\`hookline validate\` lists every problem), then try again.`;
  if (request.json) {
    io.stdout.write(`${JSON.stringify({ event, decision: 'block', reason, hooks: [], warnings: problems })}\n`);
  } else if (io.quiet !== true) {
    io.stdout.write(`${terminalText(event)}: block — the hook configuration cannot be loaded\n`);
  }
  io.stderr.write(`${terminalText(reason)}\n`);
  return 2;
}

// The problems of a config that could not be loaded, each naming its file; `undefined` for other errors.
function configProblems(error: unknown): string[] | undefined {
  if (ConfigError.isInstance(error)) return error.issues.map((issue) => `${formatConfigIssue(issue)}.`);
  if (HooklineError.isInstance(error) && UNREADABLE_FILE_CODES.includes(error.code)) return [error.message];
  return undefined;
}
