import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { WireAnswer } from '../preset.ts';

/**
 * The merged outcome of a Gemini CLI event as Gemini CLI honours it (measured with
 * `@google/gemini-cli` 0.61): always exit 0 and one JSON object. Never exit 2 — with nothing on
 * stderr Gemini CLI runs the tool.
 *
 * - `block` (and `ask`, which a headless Gemini CLI cannot put to the user) → `decision: "deny"` with a
 *   non-empty `reason`: BeforeTool refuses the call and the reason reaches the model as the tool's
 *   error; AfterTool replaces the tool's output with it; BeforeAgent drops the prompt; AfterAgent
 *   retries with it.
 * - a changed input (BeforeTool) → `decision: "allow"` with `hookSpecificOutput.tool_input`.
 * - `additionalContext` (AfterTool, BeforeAgent, SessionStart) → `hookSpecificOutput.additionalContext`.
 * - `continue: false` with `stopReason`; `systemMessage`.
 */
export function writeGeminiAnswer(outcome: EmitOutcome, event: string): WireAnswer {
  const body: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const reason = nonEmpty(outcome.reason) ?? `blocked by Hookline${decidedBy(outcome)}`;
  if (outcome.decision === 'block' || outcome.decision === 'ask') {
    body['decision'] = 'deny';
    body['reason'] =
      outcome.decision === 'ask'
        ? `needs the user's approval, which Gemini CLI cannot ask for here: ${reason}`
        : reason;
  } else if (outcome.updated_input !== undefined && event === 'BeforeTool') {
    body['decision'] = 'allow';
    specific['tool_input'] = outcome.updated_input;
  }
  if (outcome.continue === false) {
    body['continue'] = false;
    body['stopReason'] = nonEmpty(outcome.stop_reason) ?? reason;
  }
  if (outcome.system_messages !== undefined && outcome.system_messages.length > 0)
    body['systemMessage'] = outcome.system_messages.join('\n');
  if (outcome.additional_context !== undefined && outcome.additional_context.length > 0)
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
