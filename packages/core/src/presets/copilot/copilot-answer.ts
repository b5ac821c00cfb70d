import { shown } from '../../decisions/decision-problem.ts';
import type { HookDecision } from '../../decisions/decision.ts';
import type { PresetAnswer } from '../preset.ts';
import { COPILOT_BLOCK_EVENTS } from './copilot-wire-answer.ts';

// The output fields of Copilot's hooks (its SDK's hook reference, `@github/copilot` 1.0.102) that
// Hookline can carry; the others it has no equivalent for are problems, not silent drops.
const KNOWN = [
  'permissionDecision',
  'permissionDecisionReason',
  'modifiedArgs',
  'additionalContext',
  'decision',
  'reason',
];
const UNCARRIED = ['modifiedPrompt', 'modifiedTransformedPrompt', 'modifiedResult', 'handled', 'responseContent'];
const PERMISSIONS: Readonly<Record<string, HookDecision['decision']>> = { allow: 'allow', deny: 'block', ask: 'ask' };

type DecisionDraft = { -readonly [Field in keyof HookDecision]: HookDecision[Field] };

/**
 * Reads a Copilot hook's JSON output, as Copilot does (measured with `@github/copilot` 1.0.102):
 * preToolUse's `permissionDecision` `allow` | `deny` | `ask` with `permissionDecisionReason` and
 * `modifiedArgs` (the tool's new arguments); `decision: "block"` with `reason` (userPromptSubmitted,
 * agentStop, subagentStop); `additionalContext`. A deny without a reason reads as Copilot words it.
 */
export function readCopilotAnswer(value: unknown, event: string): PresetAnswer | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const warnings = Object.keys(record)
    .filter((key) => !KNOWN.includes(key) && !UNCARRIED.includes(key))
    .map((key) => `unknown output field ${key}; ignored`);
  const problems = Object.keys(record)
    .filter((key) => UNCARRIED.includes(key))
    .map((key) => `${key} has no Hookline equivalent: the answer cannot be carried`);
  const decision: DecisionDraft = { decision: 'proceed' };
  const text = (key: string): string | undefined =>
    typeof record[key] === 'string' && record[key].trim() !== '' ? record[key] : undefined;
  const permission = record['permissionDecision'];
  if (permission !== undefined && permission !== null) {
    const kind = typeof permission === 'string' ? PERMISSIONS[permission] : undefined;
    if (kind === undefined)
      problems.push(`permissionDecision must be "allow", "deny" or "ask", got ${shown(permission)}`);
    else if (event !== 'preToolUse') warnings.push(`permissionDecision is read on preToolUse only; ignored`);
    else {
      decision.decision = kind;
      const reason = text('permissionDecisionReason') ?? (kind === 'block' ? 'No reason provided' : undefined);
      if (reason !== undefined) decision.reason = reason;
    }
  }
  if (record['decision'] === 'block' && COPILOT_BLOCK_EVENTS.includes(event)) {
    decision.decision = 'block';
    decision.reason = text('reason') ?? `blocked by the ${event} hook`;
  } else if (record['decision'] !== undefined && record['decision'] !== null)
    warnings.push(`decision ${shown(record['decision'])} is not read on ${event}; ignored`);
  const args = record['modifiedArgs'];
  if (typeof args === 'object' && args !== null && !Array.isArray(args))
    decision.updated_input = args as Record<string, unknown>;
  else if (args !== undefined && args !== null) problems.push(`modifiedArgs must be an object, got ${shown(args)}`);
  const context = text('additionalContext');
  if (context !== undefined) decision.additional_context = context;
  return { decision, warnings, ...(problems.length === 0 ? {} : { problems }) };
}
