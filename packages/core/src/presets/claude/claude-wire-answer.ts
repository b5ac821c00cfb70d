import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { WireAnswer } from '../preset.ts';

// Claude Code's names for the decisions a PreToolUse hook gives (`permissionDecision`).
const PERMISSION: Readonly<Partial<Record<EmitOutcome['decision'], string>>> = {
  allow: 'allow',
  ask: 'ask',
  block: 'deny',
};

/**
 * The merged outcome of a Claude Code event as Claude Code reads a hook's answer: exit 0 and, when
 * there is anything to say, one JSON object on stdout (its hooks reference, "JSON output"):
 *
 * - PreToolUse: `hookSpecificOutput.permissionDecision` `allow` | `ask` | `deny` (for `block`) with
 *   `permissionDecisionReason`, and `updatedInput`;
 * - PermissionRequest: `hookSpecificOutput.decision` `{behavior: "allow", updatedInput?}` or
 *   `{behavior: "deny", message}`;
 * - other events that honour `block` (PostToolUse, UserPromptSubmit, Stop, …): `decision: "block"`
 *   with `reason`;
 * - every event: `continue: false` with `stopReason`, `systemMessage` (the hooks' messages, one per
 *   line), `hookSpecificOutput.additionalContext` (the hooks' contexts, a blank line apart).
 *
 * `proceed` with nothing else is exit 0 with nothing printed: Claude Code carries on as it would.
 * It is the inverse of `readClaudeAnswer`: what this writes reads back as the same decision.
 */
export function writeClaudeAnswer(outcome: EmitOutcome, event: string): WireAnswer {
  const body: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  if (outcome.continue === false) {
    body['continue'] = false;
    if (outcome.stop_reason !== undefined) body['stopReason'] = outcome.stop_reason;
  }
  if (outcome.system_messages !== undefined && outcome.system_messages.length > 0)
    body['systemMessage'] = outcome.system_messages.join('\n');
  const reason =
    outcome.reason ?? (outcome.decided_by === undefined ? undefined : `decided by hook "${outcome.decided_by}"`);
  if (event === 'PreToolUse') {
    const permission = PERMISSION[outcome.decision];
    if (permission !== undefined) {
      specific['permissionDecision'] = permission;
      if (reason !== undefined) specific['permissionDecisionReason'] = reason;
    }
    if (outcome.updated_input !== undefined) specific['updatedInput'] = outcome.updated_input;
  } else if (event === 'PermissionRequest') {
    if (outcome.decision === 'allow')
      specific['decision'] = {
        behavior: 'allow',
        ...(outcome.updated_input === undefined ? {} : { updatedInput: outcome.updated_input }),
      };
    if (outcome.decision === 'block')
      specific['decision'] = { behavior: 'deny', message: reason ?? `denied by the ${event} hook` };
  } else if (outcome.decision === 'block') {
    body['decision'] = 'block';
    body['reason'] = reason ?? `blocked by the ${event} hook`;
  }
  if (outcome.additional_context !== undefined && outcome.additional_context.length > 0)
    specific['additionalContext'] = outcome.additional_context.join('\n\n');
  if (Object.keys(specific).length > 0) body['hookSpecificOutput'] = { hookEventName: event, ...specific };
  return Object.keys(body).length === 0 ? { exitCode: 0 } : { exitCode: 0, stdout: `${JSON.stringify(body)}\n` };
}
