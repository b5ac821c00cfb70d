import type { EmitOutcome, HookReport } from '@hookline/core';
import { DECISION_FORMAT, STATUS_FORMAT } from './decision-format.ts';
import { formatDuration } from './format-duration.ts';
import { formatTable } from './format-table.ts';
import type { Style } from './style.ts';
import { terminalText } from './terminal-text.ts';

/**
 * The human form of an outcome: the decision line (what the host must do, and why), a summary
 * table of the selected hooks, and below it the error of every hook that failed or timed out.
 */
export function formatOutcome(outcome: EmitOutcome, style: Style): string {
  const lines = [decisionLine(outcome, style), ...extraLines(outcome, style)];
  if (outcome.hooks.length === 0) {
    lines.push(
      style.paint('dim', `  no hook selected — \`hookline explain ${terminalText(outcome.event)}\` shows why`),
    );
    return lines.join('\n');
  }
  lines.push('');
  lines.push(
    formatTable(
      ['hook', 'type', 'status', 'decision', 'time'],
      outcome.hooks.map((hook) => [
        hook.blocking ? hook.name : `${hook.name} (non-blocking)`,
        hook.type,
        { text: hook.status, format: STATUS_FORMAT[hook.status] },
        {
          text: hookDecision(hook),
          format: hook.decision === undefined ? 'dim' : DECISION_FORMAT[hook.decision.decision],
        },
        formatDuration(hook.duration_ms),
      ]),
      style,
    ),
  );
  const notes = outcome.hooks.flatMap((hook) => note(hook, style));
  if (notes.length > 0) lines.push('', ...notes);
  return lines.join('\n');
}

function decisionLine(outcome: EmitOutcome, style: Style): string {
  const decision = terminalText(
    outcome.decision === 'override' ? `override → ${outcome.edge_to ?? '?'}` : outcome.decision,
  );
  const reason = outcome.reason === undefined ? '' : ` — ${terminalText(outcome.reason)}`;
  const by =
    outcome.decided_by === undefined ? '' : style.paint('dim', ` (decided by ${terminalText(outcome.decided_by)})`);
  return `${style.paint('bold', terminalText(outcome.event))}: ${style.paint(DECISION_FORMAT[outcome.decision] ?? 'reset', decision)}${reason}${by}`;
}

// What the host gets besides the decision (presets whose events honour extras, such as claude).
function extraLines(outcome: EmitOutcome, style: Style): string[] {
  const lines: string[] = [];
  if (outcome.continue === false)
    lines.push(`  ${style.paint(['red', 'bold'], 'stop')}: ${outcome.stop_reason ?? 'a hook asked the host to stop'}`);
  if (outcome.updated_input !== undefined)
    lines.push(`  ${style.paint('cyan', 'updated input')}: ${JSON.stringify(outcome.updated_input)}`);
  for (const context of outcome.additional_context ?? []) lines.push(`  ${style.paint('cyan', 'context')}: ${context}`);
  for (const message of outcome.system_messages ?? []) lines.push(`  ${style.paint('cyan', 'message')}: ${message}`);
  return lines;
}

function hookDecision(hook: HookReport): string {
  if (hook.decision === undefined) return '—';
  return hook.decision.decision === 'override' ? `override → ${hook.decision.edge_to ?? '?'}` : hook.decision.decision;
}

function note(hook: HookReport, style: Style): string[] {
  if (hook.status === 'failed' || hook.status === 'timed_out') {
    return [
      `  ${style.paint('red', '✗')} ${terminalText(`${hook.name}: ${hook.error ?? hook.status}${hook.decision === undefined ? '' : ` (on_error: ${hook.decision.decision})`}`)}`,
    ];
  }
  if (hook.decision?.reason !== undefined && hook.decision.decision !== 'proceed')
    return [`  ${terminalText(`${hook.name}: ${hook.decision.reason}`)}`];
  return [];
}
