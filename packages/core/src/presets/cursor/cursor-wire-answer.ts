import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { WireAnswer } from '../preset.ts';

/** Cursor's events that answer with `permission` (its published hooks reference). */
export const CURSOR_PERMISSION_EVENTS: readonly string[] = [
  'preToolUse',
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'subagentStart',
];

/**
 * The merged outcome of a Cursor event in the form Cursor's hooks reference gives each event: always
 * exit 0 and one JSON object.
 *
 * - permission events: `block` → `permission: "deny"` with the reason as `agent_message` (to the
 *   model) and `user_message`; `ask` → `permission: "ask"`; `allow` → `permission: "allow"`; a
 *   changed input (preToolUse) → `updated_input`; `proceed` → `{}`, leaving Cursor's own rules to decide.
 * - beforeSubmitPrompt: `continue: false` with `user_message` on a block, else `continue: true`.
 * - stop, subagentStop: a block → `followup_message` (the agent goes on with the reason).
 * - `additional_context` where the event takes it (postToolUse, sessionStart).
 */
export function writeCursorAnswer(outcome: EmitOutcome, event: string): WireAnswer {
  const body: Record<string, unknown> = {};
  const reason =
    nonEmpty(outcome.reason) ??
    `blocked by Hookline${outcome.decided_by === undefined ? '' : ` (hook "${outcome.decided_by}")`}`;
  if (CURSOR_PERMISSION_EVENTS.includes(event)) {
    if (outcome.decision === 'block')
      Object.assign(body, { permission: 'deny', agent_message: reason, user_message: reason });
    else if (outcome.decision === 'ask')
      Object.assign(body, { permission: 'ask', agent_message: reason, user_message: reason });
    else if (outcome.decision === 'allow') body['permission'] = 'allow';
    if (outcome.updated_input !== undefined && event === 'preToolUse' && outcome.decision !== 'block') {
      body['permission'] = body['permission'] ?? 'allow';
      body['updated_input'] = outcome.updated_input;
    }
  } else if (event === 'beforeSubmitPrompt') {
    const blocked = outcome.decision === 'block' || outcome.decision === 'ask' || outcome.continue === false;
    Object.assign(body, blocked ? { continue: false, user_message: reason } : { continue: true });
  } else if ((event === 'stop' || event === 'subagentStop') && outcome.decision === 'block') {
    body['followup_message'] = reason;
  }
  if (outcome.additional_context !== undefined && outcome.additional_context.length > 0)
    body['additional_context'] = outcome.additional_context.join('\n\n');
  return { exitCode: 0, stdout: `${JSON.stringify(body)}\n` };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}
