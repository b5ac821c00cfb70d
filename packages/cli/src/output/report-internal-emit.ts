import type { EmitOutcome } from '@hookline/core';
import type { CliIo } from '../cli-io.ts';
import { printWarnings } from '../print-warnings.ts';
import { createStyle } from './style.ts';
import { terminalText } from './terminal-text.ts';

/**
 * Reports the events the engine emits by itself around a run's sandbox session (`sandbox_ready`,
 * `sandbox_cleanup`): no host call returns their outcomes, and a failure must not pass silently. A
 * block or a failed hook is a warning in every mode; in human mode the hooks that ran are noted too.
 */
export function reportInternalEmit(outcome: EmitOutcome, io: CliIo, human: boolean): void {
  if (outcome.hooks.length === 0) return;
  const problems = outcome.hooks
    .filter((hook) => hook.status === 'failed' || hook.status === 'timed_out')
    .map(
      (hook) =>
        `${outcome.event}: hook "${hook.name}" ${hook.status === 'timed_out' ? 'timed out' : 'failed'}: ${hook.error ?? ''}`,
    );
  if (outcome.decision === 'block')
    problems.push(
      `${outcome.event}: blocked by "${outcome.decided_by ?? '?'}"${outcome.reason === undefined ? '' : `: ${outcome.reason}`}`,
    );
  printWarnings(problems, io);
  if (human && problems.length === 0 && io.quiet !== true) {
    const style = createStyle(io.stderr, io.env);
    io.stderr.write(
      `${style.paint('dim', terminalText(`hookline: ${outcome.event}: ${outcome.decision} (${outcome.hooks.map((hook) => `${hook.name} ${hook.status}`).join(', ')})`))}\n`,
    );
  }
}
