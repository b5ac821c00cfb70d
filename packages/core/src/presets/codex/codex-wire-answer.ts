import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { WireAnswer } from '../preset.ts';

/**
 * The merged outcome of a Codex event as Codex honours it (measured with `@openai/codex` 0.171):
 * always exit 0 and one JSON object, never exit 1 or plain text, which Codex reads as "run the tool".
 *
 * - PreToolUse: `block` (and `ask`, which Codex refuses and would run) →
 *   `permissionDecision: "deny"` with a non-empty `permissionDecisionReason`; a changed input →
 *   `permissionDecision: "allow"` with `updatedInput` (Codex takes `updatedInput` only with `allow`);
 *   anything else → `{}` (Codex refuses a bare `allow`, so none is sent).
 * - PermissionRequest: `hookSpecificOutput.decision` `{behavior: "allow"}` or `{behavior: "deny", message}`.
 * - other events that honour `block` (PostToolUse: the reason replaces the tool's output;
 *   UserPromptSubmit, Stop): `decision: "block"` with `reason`.
 * - `additionalContext` (PostToolUse, UserPromptSubmit, SessionStart) reaches the model as a
 *   developer message; `systemMessage` is shown to the user.
 */
export function writeCodexAnswer(outcome: EmitOutcome, event: string): WireAnswer {
  const body: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const reason = nonEmpty(outcome.reason) ?? `blocked by Hookline${decidedBy(outcome)}`;
  if (event === 'PreToolUse') {
    if (outcome.decision === 'block' || outcome.decision === 'ask') {
      specific['permissionDecision'] = 'deny';
      specific['permissionDecisionReason'] =
        outcome.decision === 'ask' ? `needs the user's approval, which Codex cannot ask for: ${reason}` : reason;
    } else if (outcome.updated_input !== undefined) {
      specific['permissionDecision'] = 'allow';
      specific['permissionDecisionReason'] = nonEmpty(outcome.reason) ?? 'input rewritten by Hookline';
      specific['updatedInput'] = outcome.updated_input;
    }
  } else if (event === 'PermissionRequest') {
    if (outcome.decision === 'allow') specific['decision'] = { behavior: 'allow' };
    if (outcome.decision === 'block' || outcome.decision === 'ask')
      specific['decision'] = { behavior: 'deny', message: reason };
  } else if (outcome.decision === 'block') {
    body['decision'] = 'block';
    body['reason'] = reason;
  }
  if (outcome.continue === false && event !== 'PreToolUse' && event !== 'PermissionRequest') {
    body['continue'] = false;
    body['stopReason'] = nonEmpty(outcome.stop_reason) ?? reason;
  }
  if (outcome.system_messages !== undefined && outcome.system_messages.length > 0)
    body['systemMessage'] = outcome.system_messages.join('\n');
  if (outcome.additional_context !== undefined && outcome.additional_context.length > 0 && event !== 'PreToolUse')
    specific['additionalContext'] = outcome.additional_context.join('\n\n');
  if (Object.keys(specific).length > 0) body['hookSpecificOutput'] = { hookEventName: event, ...specific };
  return { exitCode: 0, stdout: `${JSON.stringify(body)}\n` };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

function decidedBy(outcome: EmitOutcome): string {
  return outcome.decided_by === undefined ? '' : ` (hook "${outcome.decided_by}")`;
}
