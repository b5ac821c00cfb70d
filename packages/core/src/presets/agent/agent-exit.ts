import { clipText } from '../../decisions/clip-text.ts';
import { readAnswerText } from '../../decisions/read-answer-text.ts';
import {
  stdoutAnswerScope,
  type CommandExit,
  type CommandExitReading,
  type CommandExitScope,
} from '../command-exit.ts';

/**
 * `agent`'s command protocol: exit 0 proceeds; any other exit or a signal blocks, with the trimmed
 * stderr as the reason, else the trimmed stdout, else "blocked by {event with dashes} hook"
 * ("blocked by pre-tool-use hook"). It answers by exit code only, but stdout that looks like JSON
 * was meant as an answer: a decision other than proceed at exit 0, or JSON that cannot be read,
 * cannot be honoured there, so the hook failed (and `on_error` decides) rather than silently proceeding.
 */
export function readAgentExit(exit: CommandExit, scope: CommandExitScope): CommandExitReading {
  if (exit.exitCode !== 0) {
    const text = exit.stderr.trim() !== '' ? exit.stderr.trim() : exit.stdout.trim();
    return {
      status: 'ok',
      decision: {
        decision: 'block',
        reason: text === '' ? `blocked by ${scope.event.replaceAll('_', '-')} hook` : clipText(text),
      },
      warnings: [],
    };
  }
  const reading = readAnswerText(exit.stdout, stdoutAnswerScope(exit, scope, undefined));
  if (reading.kind === 'unreadable') return { status: 'failed', error: reading.problem, warnings: reading.warnings };
  if (reading.kind === 'answer' && reading.decision.decision !== 'proceed') {
    return {
      status: 'failed',
      error: `stdout held the decision "${reading.decision.decision}" at exit 0, but this preset's hooks answer by exit code only: exit 0 proceeds, any other code vetoes (print the reason on stderr and exit 2)`,
      warnings: [],
    };
  }
  // A proceed may carry extras: a replacement tool input, context for the agent's model.
  return {
    status: 'ok',
    decision: reading.kind === 'answer' ? reading.decision : { decision: 'proceed' },
    warnings: [],
  };
}
