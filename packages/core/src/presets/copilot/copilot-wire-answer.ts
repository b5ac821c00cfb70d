import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { WireAnswer } from '../preset.ts';

/** Copilot's events whose `decision: "block"` it honours (measured: the prompt is refused; the agent goes on). */
export const COPILOT_BLOCK_EVENTS: readonly string[] = ['userPromptSubmitted', 'agentStop', 'subagentStop'];

/** Copilot's events that take `additionalContext` (measured: it reaches the model). */
const CONTEXT_EVENTS: readonly string[] = [
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'userPromptSubmitted',
  'sessionStart',
  'subagentStart',
];

/**
 * The merged outcome of a Copilot event as GitHub Copilot CLI honours it (measured with
 * `@github/copilot` 1.0.102): always exit 0 and one JSON object — never plain text, which Copilot
 * ignores and then runs the tool, and never exit 2, whose stderr Copilot drops.
 *
 * - preToolUse: `block` → `permissionDecision: "deny"` with a non-empty `permissionDecisionReason`
 *   (the model gets "Denied by preToolUse hook: <reason>"); `ask` → `permissionDecision: "ask"` (a
 *   prompt-mode run, which cannot ask, denies it with the reason); `allow` → `permissionDecision:
 *   "allow"`; a changed input → `modifiedArgs` (the whole arguments) with `allow` unless it asks;
 *   `proceed` → `{}`, leaving Copilot's own permission rules to decide.
 * - userPromptSubmitted, agentStop, subagentStop: `block` → `decision: "block"` with `reason` (the prompt
 *   is refused; the agent goes on with the reason as the next user message).
 * - `additionalContext` where the event takes it.
 */
export function writeCopilotAnswer(outcome: EmitOutcome, event: string): WireAnswer {
  const body: Record<string, unknown> = {};
  const reason = nonEmpty(outcome.reason) ?? `blocked by Hookline${decidedBy(outcome)}`;
  if (event === 'preToolUse') {
    if (outcome.decision === 'block')
      Object.assign(body, { permissionDecision: 'deny', permissionDecisionReason: reason });
    else if (outcome.decision === 'ask')
      Object.assign(body, {
        permissionDecision: 'ask',
        permissionDecisionReason: nonEmpty(outcome.reason) ?? `Hookline asks for approval${decidedBy(outcome)}`,
      });
    else if (outcome.decision === 'allow' || outcome.updated_input !== undefined)
      Object.assign(body, {
        permissionDecision: 'allow',
        permissionDecisionReason:
          nonEmpty(outcome.reason) ??
          (outcome.updated_input === undefined ? 'allowed by Hookline' : 'input rewritten by Hookline'),
      });
    if (outcome.updated_input !== undefined && outcome.decision !== 'block')
      body['modifiedArgs'] = outcome.updated_input;
  } else if (COPILOT_BLOCK_EVENTS.includes(event) && outcome.decision === 'block') {
    Object.assign(body, { decision: 'block', reason });
  }
  if (
    CONTEXT_EVENTS.includes(event) &&
    outcome.additional_context !== undefined &&
    outcome.additional_context.length > 0
  )
    body['additionalContext'] = outcome.additional_context.join('\n\n');
  const messages = outcome.system_messages ?? [];
  // Copilot shows no message field of a hook's answer; the user still sees Hookline's notes on stderr.
  return {
    exitCode: 0,
    stdout: `${JSON.stringify(body)}\n`,
    ...(messages.length === 0 ? {} : { stderr: `${messages.join('\n')}\n` }),
  };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

function decidedBy(outcome: EmitOutcome): string {
  return outcome.decided_by === undefined ? '' : ` (hook "${outcome.decided_by}")`;
}
