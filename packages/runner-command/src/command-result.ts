import type { ExecResult, Preset, RunResult } from '@hookline/core/plugin';
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
  /** The event the hook ran for. */
  readonly event: string;
  /** The active preset: its command protocol (`preset.command.readExit`) reads the exit as a decision. */
  readonly preset: Preset;
}

/**
 * Reads how the process ended: the report's details (exit code, sandbox, truncation, stderr's tail),
 * then the preset's command protocol (`preset.command.readExit`) makes it a decision or a failure.
 *
 * Every built-in protocol: stdout that looks like JSON (`{`, `[` or `"` first) at exit 0 was meant as an
 * answer; when it cannot be honoured — not valid JSON, cut at the output cap, a decision field of
 * the wrong type or value — the hook failed and `on_error` decides (`readAnswerText`).
 */
export function commandResult(exec: ExecResult, scope: CommandResultScope): RunResult {
  const details: Record<string, unknown> = { exit_code: exec.exitCode, sandbox: scope.provider };
  const warnings: string[] = [...(exec.warnings ?? [])];
  if (exec.signal !== null) details['signal'] = exec.signal;
  if (exec.stdoutTruncated) {
    details['stdout_truncated'] = true;
    warnings.push(
      `stdout exceeded ${scope.maxOutputBytes} bytes: the rest was dropped, and the output was not read as a decision`,
    );
  }
  if (exec.stderrTruncated) {
    details['stderr_truncated'] = true;
    warnings.push(`stderr exceeded ${scope.maxOutputBytes} bytes: the rest was dropped`);
  }
  if (exec.exitCode !== 0 && exec.stderr.length > 0 && scope.stderrTailBytes > 0) {
    details['stderr'] = decodeTail(exec.stderr, scope.stderrTailBytes).trimEnd();
  }
  if (exec.aborted)
    return { status: 'failed', error: `the hook was stopped: ${scope.abortReason()}`, warnings, details };

  const exit = {
    exitCode: exec.exitCode,
    signal: exec.signal,
    stdout: decodeOutput(exec.stdout),
    stderr: decodeOutput(exec.stderr),
    stdoutTruncated: exec.stdoutTruncated,
  };
  const reading = scope.preset.command.readExit(exit, {
    event: scope.event,
    preset: scope.preset,
    maxOutputBytes: scope.maxOutputBytes,
  });
  warnings.push(...reading.warnings);
  if (reading.status === 'failed') return { status: 'failed', error: reading.error, warnings, details };
  return {
    status: 'ok',
    decision: reading.decision,
    warnings,
    details: reading.details === undefined ? details : { ...details, ...reading.details },
  };
}
