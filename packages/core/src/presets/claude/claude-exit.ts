import { clipText } from '../../decisions/clip-text.ts';
import { readAnswerText } from '../../decisions/read-answer-text.ts';
import {
  exitTwoReading,
  stdoutAnswerScope,
  type CommandExit,
  type CommandExitReading,
  type CommandExitScope,
} from '../command-exit.ts';
import { findEvent } from '../preset.ts';

/**
 * Claude Code's command protocol. Exit 0: stdout holding a JSON object is the preset's answer format
 * (`preset.readAnswer`); other stdout is the model's added context where the event says so
 * (`stdoutIsContext`), else ignored. Exit 2: a blocking error with stderr as the reason — `block`
 * where the event honours it, else a message for the user. Any other exit, or a signal: the hook
 * failed (a non-blocking error in Claude Code), with stderr in the error; `on_error` decides.
 */
export function readClaudeExit(exit: CommandExit, scope: CommandExitScope): CommandExitReading {
  const spec = findEvent(scope.preset, scope.event);
  const stderr = exit.stderr.trim();
  const said = stderr === '' ? '' : `: ${clipText(stderr)}`;
  if (exit.exitCode === null)
    return { status: 'failed', error: `hook killed by ${exit.signal ?? 'an unknown signal'}${said}`, warnings: [] };
  if (exit.exitCode === 2) return exitTwoReading(stderr, scope);
  if (exit.exitCode !== 0)
    return { status: 'failed', error: `hook exited with code ${exit.exitCode}${said}`, warnings: [] };
  const reading = readAnswerText(exit.stdout, stdoutAnswerScope(exit, scope));
  if (reading.kind === 'unreadable') return { status: 'failed', error: reading.problem, warnings: reading.warnings };
  if (reading.kind === 'answer')
    return {
      status: 'ok',
      decision: reading.decision,
      warnings: reading.warnings,
      ...(reading.details === undefined ? {} : { details: reading.details }),
    };
  const stdout = exit.stdoutTruncated ? '' : exit.stdout.trim();
  if (stdout !== '' && spec?.stdoutIsContext === true)
    return { status: 'ok', decision: { decision: 'proceed', additional_context: stdout }, warnings: reading.warnings };
  return { status: 'ok', decision: { decision: 'proceed' }, warnings: reading.warnings };
}
