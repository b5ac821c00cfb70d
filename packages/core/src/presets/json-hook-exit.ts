import { clipText } from '../decisions/clip-text.ts';
import { readAnswerText } from '../decisions/read-answer-text.ts';
import {
  exitTwoReading,
  stdoutAnswerScope,
  type CommandExit,
  type CommandExitReading,
  type CommandExitScope,
} from './command-exit.ts';

/** How a host of the "exit 0 with JSON, exit 2 with stderr" family reads a hook's exit. */
export interface JsonHookExitRules {
  /** The host's name, for messages: `Gemini CLI`. */
  readonly host: string;
  /**
   * Exit 2 with nothing on stderr is not a block for this host (Gemini CLI and Codex run the tool):
   * the hook failed, and its `on_error` decides.
   */
  readonly exitTwoNeedsReason: boolean;
}

/**
 * The command protocol most coding agents share: exit 0 with stdout holding a JSON object is the
 * preset's answer format (`preset.readAnswer`), other stdout is ignored; exit 2 blocks with stderr as
 * the reason where the event honours a block (else the reason is a message for the user); any other
 * exit, a signal, or exit 2 without a reason where the host needs one: the hook failed, and its
 * `on_error` decides.
 */
export function readJsonHookExit(
  exit: CommandExit,
  scope: CommandExitScope,
  rules: JsonHookExitRules,
): CommandExitReading {
  const stderr = exit.stderr.trim();
  const said = stderr === '' ? '' : `: ${clipText(stderr)}`;
  if (exit.exitCode === null)
    return { status: 'failed', error: `hook killed by ${exit.signal ?? 'an unknown signal'}${said}`, warnings: [] };
  if (exit.exitCode === 2) {
    if (stderr === '' && rules.exitTwoNeedsReason)
      return {
        status: 'failed',
        error: `hook exited with code 2 but wrote no reason on stderr, which ${rules.host} does not read as a block; write the reason to stderr`,
        warnings: [],
      };
    return exitTwoReading(stderr, scope);
  }
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
  const plain = exit.stdout.trim() === '' ? [] : [`stdout is not a JSON answer; ${rules.host} ignores it`];
  return { status: 'ok', decision: { decision: 'proceed' }, warnings: [...reading.warnings, ...plain] };
}
