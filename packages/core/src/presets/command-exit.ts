import type { AnswerTextScope } from '../decisions/read-answer-text.ts';
import type { CommandExit, CommandExitScope, Preset } from './preset.ts';

export type { CommandExit, CommandExitReading, CommandExitScope } from './preset.ts';

/** The scope `readAnswerText` reads a command's stdout with. */
export function stdoutAnswerScope(
  exit: CommandExit,
  scope: CommandExitScope,
  preset: Preset | undefined = scope.preset,
): AnswerTextScope {
  return {
    truncated: exit.stdoutTruncated,
    capBytes: scope.maxOutputBytes,
    preset,
    event: scope.event,
    what: 'stdout',
  };
}
