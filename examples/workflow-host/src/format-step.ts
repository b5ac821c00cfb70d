import { styleText } from 'node:util';
import type { EmitOutcome } from '@hookline/core';
import type { FlowStep } from './run-workflow.ts';

type Format = Parameters<typeof styleText>[0];
// styleText checks that stdout is a terminal and honours NO_COLOR / FORCE_COLOR by itself.
const paint = (format: Format, text: string): string => styleText(format, text);
const COLORS: Readonly<Record<string, Format>> = { proceed: 'green', skip: 'yellow', block: 'red', override: 'cyan' };

/**
 * One line per step worth seeing: every stage, the edges a hook looked at, and the end of the run
 * with what its non-blocking hooks did. Columns: event, subject, decision, who decided and why.
 */
export function formatStep(step: FlowStep, outbox: () => readonly string[]): string | undefined {
  switch (step.kind) {
    case 'stage':
      return row('stage_start', step.node, step.outcome, step.summary === undefined ? undefined : `→ ${step.summary}`);
    case 'edge':
      // An edge no hook looked at is not news.
      return step.outcome.hooks.length === 0
        ? undefined
        : row('edge_selected', `${step.from}→${step.to}`, step.outcome);
    case 'end':
      return step.outcome.hooks
        .map((hook) => {
          const sent = outbox().at(-1);
          const what =
            hook.status !== 'ok'
              ? `${hook.status}: ${hook.error ?? ''}`
              : sent === undefined
                ? 'ran'
                : `sent “${sent}”`;
          return `  ${step.event.padEnd(15)}${`${hook.name} (non-blocking)`.padEnd(30)}${what}`;
        })
        .join('\n');
  }
}

function row(event: string, subject: string, outcome: EmitOutcome, note?: string): string {
  const name = outcome.decision === 'override' ? `override → ${outcome.edge_to ?? '?'}` : outcome.decision;
  const detail =
    outcome.decided_by !== undefined
      ? `${paint('bold', outcome.decided_by)}: ${outcome.reason ?? ''}`
      : (note ??
        (outcome.hooks.length === 0
          ? ''
          : paint('dim', `(${outcome.hooks.map((hook) => hook.name).join(', ')}: no objection)`)));
  return `  ${event.padEnd(15)}${subject.padEnd(14)}${paint(COLORS[outcome.decision] ?? 'reset', name.padEnd(16))}${detail}`.trimEnd();
}
