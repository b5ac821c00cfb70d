import { clipText } from '../decisions/clip-text.ts';
import type { AnswerTextScope } from '../decisions/read-answer-text.ts';
import { findEvent, type CommandExit, type CommandExitReading, type CommandExitScope, type Preset } from './preset.ts';

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

/**
 * Exit 2 as the agents read it: a block with stderr (trimmed) as the reason where the event honours a
 * block, else the reason as a message for the user.
 */
export function exitTwoReading(stderr: string, scope: CommandExitScope): CommandExitReading {
  const reason = stderr === '' ? 'hook exited with code 2' : clipText(stderr);
  const spec = findEvent(scope.preset, scope.event);
  return {
    status: 'ok',
    decision:
      spec === undefined || spec.honours.includes('block')
        ? { decision: 'block', reason }
        : { decision: 'proceed', system_message: reason },
    warnings: [],
  };
}
