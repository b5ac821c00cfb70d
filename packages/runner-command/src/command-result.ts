import { clipText, findEvent, messageOf, parseDecisionText, readAnswerText, type AnswerTextScope, type CommandProtocol, type ExecResult, type HookDecision, type Preset, type RunResult } from '@hookline/core/plugin';
import { decodeOutput, decodeTail } from './decode-output.ts';

/** What reading an exec's result needs besides the result. */
export interface CommandResultScope {
  /** Named in the report as `sandbox`: `host`, `local`, `docker`, … */
  readonly provider: string;
  /** The cap the output was captured with, for the truncation warnings. */
  readonly maxOutputBytes: number;
  /** How many trailing bytes of stderr the report carries when the hook did not exit 0. */
  readonly stderrTailBytes: number;
  /** Why the exec was aborted, when it was. */
  readonly abortReason: () => string;
  /** How the exit reads as a decision: the preset's protocol; `arc` when absent. */
  readonly protocol?: CommandProtocol;
  /** The event, named in the `agent` protocol's default veto reason. */
  readonly event?: string;
  /** The active preset: the `claude` protocol reads its answers and the event's meaning through it. */
  readonly preset?: Preset;
}

/**
 * Applies the preset's command protocol to how the process ended.
 *
 * `arc`: exit 0: the whole trimmed stdout as a decision JSON, else `proceed`. Exit 2: the
 * same JSON, else `block`. Another code or a signal: `block` naming it.
 *
 * `agent`: exit 0 proceeds; any other exit or a signal blocks, with the trimmed stderr as the
 * reason, else the trimmed stdout, else "blocked by {event with dashes} hook" ("blocked by
 * pre-tool-use hook").
 *
 * Every protocol: stdout that looks like JSON (`{`, `[` or `"` first) at exit 0 was meant as an
 * answer; when it cannot be honoured — not valid JSON, cut at the output cap, a decision field of
 * the wrong type or value — the hook failed and `on_error` decides (`readAnswerText`).
 */
export function commandResult(exec: ExecResult, scope: CommandResultScope): RunResult {
  const details: Record<string, unknown> = { exit_code: exec.exitCode, sandbox: scope.provider };
  const warnings: string[] = [...(exec.warnings ?? [])];
  if (exec.signal !== null) details['signal'] = exec.signal;
  if (exec.stdoutTruncated) {
    details['stdout_truncated'] = true;
    warnings.push(`stdout exceeded ${scope.maxOutputBytes} bytes: the rest was dropped, and the output was not read as a decision`);
  }
  if (exec.stderrTruncated) {
    details['stderr_truncated'] = true;
    warnings.push(`stderr exceeded ${scope.maxOutputBytes} bytes: the rest was dropped`);
  }
  if (exec.exitCode !== 0 && exec.stderr.length > 0 && scope.stderrTailBytes > 0) {
    details['stderr'] = decodeTail(exec.stderr, scope.stderrTailBytes).trimEnd();
  }
  if (exec.aborted) return { status: 'failed', error: `the hook was stopped: ${scope.abortReason()}`, warnings, details };

  if (scope.protocol === 'claude') return claudeResult(exec, scope, warnings, details);
  if (scope.protocol === 'agent') return agentResult(exec, scope, warnings, details);
  return arcResult(exec, scope, warnings, details);
}

/**
 * Claude Code's protocol. Exit 0: stdout holding a JSON object is the preset's answer format
 * (`preset.readAnswer`); other stdout is the model's added context where the event says so
 * (`stdoutIsContext`), else ignored. Exit 2: a blocking error with stderr as the reason — `block`
 * where the event honours it, else a message for the user. Any other exit, or a signal: the hook
 * failed (a non-blocking error in Claude Code), with stderr in the error; `on_error` decides.
 */
function claudeResult(exec: ExecResult, scope: CommandResultScope, warnings: string[], details: Record<string, unknown>): RunResult {
  const event = scope.event ?? 'hook';
  const spec = scope.preset === undefined ? undefined : findEvent(scope.preset, event);
  const stderr = decodeOutput(exec.stderr).trim();
  if (exec.exitCode === null) return { status: 'failed', error: `hook killed by ${exec.signal ?? 'an unknown signal'}${stderr === '' ? '' : `: ${clipText(stderr)}`}`, warnings, details };
  if (exec.exitCode === 2) {
    const reason = stderr === '' ? 'hook exited with code 2' : clipText(stderr);
    const decision: HookDecision = spec === undefined || spec.honours.includes('block') ? { decision: 'block', reason } : { decision: 'proceed', system_message: reason };
    return { status: 'ok', decision, warnings, details };
  }
  if (exec.exitCode !== 0) return { status: 'failed', error: `hook exited with code ${exec.exitCode}${stderr === '' ? '' : `: ${clipText(stderr)}`}`, warnings, details };
  const reading = readAnswerText(decodeOutput(exec.stdout), answerScope(exec, scope, event));
  if (reading.kind === 'unreadable') return { status: 'failed', error: reading.problem, warnings: [...warnings, ...reading.warnings], details };
  warnings.push(...reading.warnings);
  if (reading.kind === 'answer') return { status: 'ok', decision: reading.decision, warnings, details: { ...details, ...reading.details } };
  const stdout = exec.stdoutTruncated ? '' : decodeOutput(exec.stdout).trim();
  if (stdout !== '' && spec?.stdoutIsContext === true) return { status: 'ok', decision: { decision: 'proceed', additional_context: stdout }, warnings, details };
  return { status: 'ok', decision: { decision: 'proceed' }, warnings, details };
}

function answerScope(exec: ExecResult, scope: CommandResultScope, event: string): AnswerTextScope {
  return { truncated: exec.stdoutTruncated, capBytes: scope.maxOutputBytes, preset: scope.preset, event, what: 'stdout' };
}

/**
 * The `agent` protocol answers by exit code only, but stdout that looks like JSON was meant as an
 * answer: a decision other than proceed at exit 0, or JSON that cannot be read, cannot be honoured
 * there, so the hook failed (and `on_error` decides) rather than silently proceeding.
 */
function agentResult(exec: ExecResult, scope: CommandResultScope, warnings: string[], details: Record<string, unknown>): RunResult {
  const event = scope.event ?? 'hook';
  if (exec.exitCode !== 0) return { status: 'ok', decision: decideByExit(exec, event), warnings, details };
  const reading = readAnswerText(decodeOutput(exec.stdout), { ...answerScope(exec, scope, event), preset: undefined });
  if (reading.kind === 'unreadable') return { status: 'failed', error: reading.problem, warnings: [...warnings, ...reading.warnings], details };
  if (reading.kind === 'answer' && reading.decision.decision !== 'proceed') {
    return {
      status: 'failed',
      error: `stdout held the decision "${reading.decision.decision}" at exit 0, but this preset's hooks answer by exit code only: exit 0 proceeds, any other code vetoes (print the reason on stderr and exit 2)`,
      warnings,
      details,
    };
  }
  return { status: 'ok', decision: { decision: 'proceed' }, warnings, details };
}

function decideByExit(exec: ExecResult, event: string): HookDecision {
  const stdout = decodeOutput(exec.stdout).trim();
  const stderr = decodeOutput(exec.stderr).trim();
  const text = stderr !== '' ? stderr : stdout;
  return { decision: 'block', reason: text === '' ? `blocked by ${event.replaceAll('_', '-')} hook` : clipText(text) };
}

// Exit 0 or 2 with stdout that looks like JSON but cannot be honoured: at exit 0 the hook failed
// (on_error decides); at exit 2 it blocks anyway, and the warning says why the JSON was not read.
function arcResult(exec: ExecResult, scope: CommandResultScope, warnings: string[], details: Record<string, unknown>): RunResult {
  if (exec.exitCode === null) return { status: 'ok', decision: { decision: 'block', reason: `hook killed by ${exec.signal ?? 'an unknown signal'}` }, warnings, details };
  if (exec.exitCode !== 0 && exec.exitCode !== 2) {
    if (!exec.stdoutTruncated && parseDecisionText(decodeOutput(exec.stdout)) !== undefined) {
      warnings.push(`stdout held a decision JSON, but only exit codes 0 and 2 are read for one; exit code ${exec.exitCode} blocks`);
    }
    return { status: 'ok', decision: { decision: 'block', reason: `hook exited with code ${exec.exitCode}` }, warnings, details };
  }
  const reading = readAnswerText(decodeOutput(exec.stdout), answerScope(exec, scope, scope.event ?? 'hook'));
  warnings.push(...reading.warnings);
  if (reading.kind === 'answer') return { status: 'ok', decision: reading.decision, warnings, details };
  if (reading.kind === 'unreadable') {
    if (exec.exitCode === 0) return { status: 'failed', error: reading.problem, warnings, details };
    warnings.push(`${reading.problem}; exit code 2 blocks anyway`);
  } else if (!exec.stdoutTruncated && /"decision"\s*:/.test(decodeOutput(exec.stdout))) {
    // A hook that meant to answer but printed logs around its JSON deserves to know why it was ignored.
    warnings.push('stdout mentions "decision" but is not exactly one valid decision JSON (text around it), so it was ignored');
  }
  return { status: 'ok', decision: exec.exitCode === 0 ? { decision: 'proceed' } : { decision: 'block', reason: 'hook exited with code 2' }, warnings, details };
}
