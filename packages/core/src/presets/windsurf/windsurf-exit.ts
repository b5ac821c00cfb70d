import { clipText } from '../../decisions/clip-text.ts';
import { exitTwoReading, type CommandExit, type CommandExitReading, type CommandExitScope } from '../command-exit.ts';

/**
 * A Windsurf hook's exit as Cascade reads it (its hooks reference): exit 2 blocks a pre-hook, stderr
 * being what the agent sees; exit 0 lets the action go on, its output only shown to the user; any
 * other exit is an error, and the action goes on (the hook's `on_error` decides here). Windsurf reads
 * no JSON answer, so stdout is never a decision.
 */
export function readWindsurfExit(exit: CommandExit, scope: CommandExitScope): CommandExitReading {
  const stderr = exit.stderr.trim();
  if (exit.exitCode === null)
    return { status: 'failed', error: `hook killed by ${exit.signal ?? 'an unknown signal'}`, warnings: [] };
  if (exit.exitCode === 2) return exitTwoReading(stderr, scope);
  if (exit.exitCode !== 0)
    return {
      status: 'failed',
      error: `hook exited with code ${exit.exitCode}${stderr === '' ? '' : `: ${clipText(stderr)}`}`,
      warnings: [],
    };
  return { status: 'ok', decision: { decision: 'proceed' }, warnings: [] };
}
