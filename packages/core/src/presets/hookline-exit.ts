import { parseDecisionText } from '../decisions/parse-decision.ts';
import { readAnswerText } from '../decisions/read-answer-text.ts';
import { stdoutAnswerScope, type CommandExit, type CommandExitReading, type CommandExitScope } from './command-exit.ts';

/**
 * Hookline's own command protocol (`arc`, `task`). Exit 0: the whole trimmed stdout as a decision JSON, else `proceed`.
 * Exit 2: the same JSON, else `block`. Another code or a signal: `block` naming it. Exit 0 or 2 with
 * stdout that looks like JSON but cannot be honoured: at exit 0 the hook failed (on_error decides);
 * at exit 2 it blocks anyway, and the warning says why the JSON was not read.
 */
export function readHooklineExit(exit: CommandExit, scope: CommandExitScope): CommandExitReading {
  const warnings: string[] = [];
  if (exit.exitCode === null)
    return {
      status: 'ok',
      decision: { decision: 'block', reason: `hook killed by ${exit.signal ?? 'an unknown signal'}` },
      warnings,
    };
  if (exit.exitCode !== 0 && exit.exitCode !== 2) {
    if (!exit.stdoutTruncated && parseDecisionText(exit.stdout) !== undefined) {
      warnings.push(
        `stdout held a decision JSON, but only exit codes 0 and 2 are read for one; exit code ${exit.exitCode} blocks`,
      );
    }
    return {
      status: 'ok',
      decision: { decision: 'block', reason: `hook exited with code ${exit.exitCode}` },
      warnings,
    };
  }
  const reading = readAnswerText(exit.stdout, stdoutAnswerScope(exit, scope));
  warnings.push(...reading.warnings);
  if (reading.kind === 'answer') return { status: 'ok', decision: reading.decision, warnings };
  if (reading.kind === 'unreadable') {
    if (exit.exitCode === 0) return { status: 'failed', error: reading.problem, warnings };
    warnings.push(`${reading.problem}; exit code 2 blocks anyway`);
  } else if (!exit.stdoutTruncated && /"decision"\s*:/.test(exit.stdout)) {
    // A hook that meant to answer but printed logs around its JSON deserves to know why it was ignored.
    warnings.push(
      'stdout mentions "decision" but is not exactly one valid decision JSON (text around it), so it was ignored',
    );
  }
  return {
    status: 'ok',
    decision: exit.exitCode === 0 ? { decision: 'proceed' } : { decision: 'block', reason: 'hook exited with code 2' },
    warnings,
  };
}
