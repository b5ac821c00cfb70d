import { parseDecisionText, type ExecResult, type HookDecision, type RunResult } from '@hookline/core';
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
}

/**
 * Applies the command protocol (SPEC §7) to how the process ended. Exit 0: the whole trimmed stdout
 * as a decision JSON, else `proceed`. Exit 2: the same JSON, else `block`. Another code or a signal:
 * `block` naming it. Stdout that was truncated is never read as a decision: it is not the whole stdout.
 */
export function commandResult(exec: ExecResult, scope: CommandResultScope): RunResult {
  const details: Record<string, unknown> = { exit_code: exec.exitCode, sandbox: scope.provider };
  const warnings: string[] = [];
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

  const decision = decide(exec, warnings);
  return { status: 'ok', decision, warnings, details };
}

function decide(exec: ExecResult, warnings: string[]): HookDecision {
  if (exec.exitCode === null) return { decision: 'block', reason: `hook killed by ${exec.signal ?? 'an unknown signal'}` };
  if (exec.exitCode !== 0 && exec.exitCode !== 2) {
    if (!exec.stdoutTruncated && parseDecisionText(decodeOutput(exec.stdout)) !== undefined) {
      warnings.push(`stdout held a decision JSON, but only exit codes 0 and 2 are read for one; exit code ${exec.exitCode} blocks`);
    }
    return { decision: 'block', reason: `hook exited with code ${exec.exitCode}` };
  }
  const stdout = exec.stdoutTruncated ? '' : decodeOutput(exec.stdout);
  const answer = exec.stdoutTruncated ? undefined : parseDecisionText(stdout);
  if (answer !== undefined) return answer;
  // A hook that meant to answer but printed logs around its JSON (or an override without edge_to) deserves to know why it was ignored.
  if (/"decision"\s*:/.test(stdout)) {
    warnings.push('stdout mentions "decision" but is not exactly one valid decision JSON (text around it, or override without edge_to), so it was ignored');
  }
  return exec.exitCode === 0 ? { decision: 'proceed' } : { decision: 'block', reason: 'hook exited with code 2' };
}
