import { nearestWord } from '../../config/nearest-word.ts';
import { shown } from '../../decisions/decision-problem.ts';
import type { HookDecision } from '../../decisions/decision.ts';
import type { PresetAnswer } from '../preset.ts';

const TOP_LEVEL_KEYS = [
  'decision',
  'reason',
  'continue',
  'stopReason',
  'systemMessage',
  'suppressOutput',
  'hookSpecificOutput',
];
const SPECIFIC_KEYS = [
  'hookEventName',
  'tool_input',
  'additionalContext',
  'tailToolCallRequest',
  'clearContext',
  'llm_request',
  'llm_response',
  'toolConfig',
];
const DECISIONS: Readonly<Record<string, HookDecision['decision']>> = {
  allow: 'allow',
  deny: 'block',
  block: 'block',
  ask: 'ask',
};

type DecisionDraft = { -readonly [Field in keyof HookDecision]: HookDecision[Field] };

/**
 * Reads Gemini CLI's JSON hook output (its hooks reference, `@google/gemini-cli` 0.61):
 * `decision` `allow` | `deny` (alias `block`) | `ask` with `reason`; `continue: false` with
 * `stopReason`; `systemMessage`; `suppressOutput`; `hookSpecificOutput.tool_input` (BeforeTool: the
 * tool's new arguments, merged over the model's) → `updated_input`; `hookSpecificOutput.additionalContext`.
 * A deciding field of the wrong type or value is a problem: the hook failed, and `on_error` decides.
 */
export function readGeminiAnswer(value: unknown, event: string): PresetAnswer | undefined {
  if (!isObject(value)) return undefined;
  const warnings: string[] = [];
  const problems: string[] = [];
  const details: Record<string, unknown> = {};
  const decision: DecisionDraft = { decision: 'proceed' };
  for (const key of Object.keys(value)) unknown(key, TOP_LEVEL_KEYS, '', warnings);
  const reason = typeof value['reason'] === 'string' && value['reason'].trim() !== '' ? value['reason'] : undefined;
  const written = value['decision'];
  if (written !== undefined && written !== null) {
    const kind = typeof written === 'string' ? DECISIONS[written] : undefined;
    if (kind === undefined) problems.push(`decision must be "allow", "deny", "block" or "ask", got ${shown(written)}`);
    else {
      decision.decision = kind;
      const said = reason ?? (kind === 'block' ? `denied by the ${event} hook` : undefined);
      if (said !== undefined) decision.reason = said;
    }
  }
  if (value['continue'] === false) {
    decision.continue = false;
    if (typeof value['stopReason'] === 'string') decision.stop_reason = value['stopReason'];
  } else if (value['continue'] !== undefined && value['continue'] !== true)
    problems.push(`continue must be true or false, got ${shown(value['continue'])}`);
  if (typeof value['systemMessage'] === 'string') decision.system_message = value['systemMessage'];
  if (value['suppressOutput'] === true) details['suppress_output'] = true;
  const specific = value['hookSpecificOutput'];
  if (specific !== undefined && specific !== null) {
    if (!isObject(specific)) problems.push(`hookSpecificOutput must be an object, got ${shown(specific)}`);
    else {
      for (const key of Object.keys(specific)) unknown(key, SPECIFIC_KEYS, 'hookSpecificOutput.', warnings);
      const input = specific['tool_input'];
      if (isObject(input)) decision.updated_input = input;
      else if (input !== undefined && input !== null)
        problems.push(`hookSpecificOutput.tool_input must be an object, got ${shown(input)}`);
      if (typeof specific['additionalContext'] === 'string')
        decision.additional_context = specific['additionalContext'];
    }
  }
  return {
    decision,
    warnings,
    ...(problems.length === 0 ? {} : { problems }),
    ...(Object.keys(details).length === 0 ? {} : { details }),
  };
}

function unknown(key: string, known: readonly string[], where: string, warnings: string[]): void {
  if (known.includes(key)) return;
  const near = nearestWord(key, known);
  warnings.push(`unknown output field ${where}${key}${near === undefined ? '' : ` — did you mean ${near}?`}; ignored`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
