import { shown } from '../../decisions/decision-problem.ts';
import type { HookDecision } from '../../decisions/decision.ts';
import type { PresetAnswer } from '../preset.ts';

const KNOWN = [
  'permission',
  'user_message',
  'agent_message',
  'updated_input',
  'continue',
  'followup_message',
  'additional_context',
  'env',
];
const PERMISSIONS: Readonly<Record<string, HookDecision['decision']>> = { allow: 'allow', deny: 'block', ask: 'ask' };

type DecisionDraft = { -readonly [Field in keyof HookDecision]: HookDecision[Field] };

/**
 * Reads Cursor's JSON hook output (its published hooks reference; Cursor has no command-line
 * client to measure it against): `permission` `allow` | `deny` | `ask` with `agent_message` (to the
 * model: the reason) and `user_message` (to the user); `updated_input` (preToolUse);
 * `continue: false` (beforeSubmitPrompt: the prompt is not sent — a block); `followup_message`
 * (stop: the agent goes on with it — a block whose reason is the message); `additional_context`.
 */
export function readCursorAnswer(value: unknown, event: string): PresetAnswer | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const warnings = Object.keys(record)
    .filter((key) => !KNOWN.includes(key))
    .map((key) => `unknown output field ${key}; ignored`);
  const problems: string[] = [];
  const decision: DecisionDraft = { decision: 'proceed' };
  const text = (key: string): string | undefined =>
    typeof record[key] === 'string' && record[key].trim() !== '' ? record[key] : undefined;
  const permission = record['permission'];
  if (permission !== undefined && permission !== null) {
    const kind = typeof permission === 'string' ? PERMISSIONS[permission] : undefined;
    if (kind === undefined) problems.push(`permission must be "allow", "deny" or "ask", got ${shown(permission)}`);
    else {
      decision.decision = kind;
      const reason =
        text('agent_message') ?? text('user_message') ?? (kind === 'block' ? `denied by the ${event} hook` : undefined);
      if (reason !== undefined) decision.reason = reason;
    }
  }
  if (record['continue'] === false) {
    decision.decision = 'block';
    decision.reason = text('user_message') ?? `stopped by the ${event} hook`;
  } else if (record['continue'] !== undefined && record['continue'] !== true)
    problems.push(`continue must be true or false, got ${shown(record['continue'])}`);
  const followup = text('followup_message');
  if (followup !== undefined) {
    decision.decision = 'block';
    decision.reason = followup;
  }
  const user = text('user_message');
  if (user !== undefined) decision.system_message = user;
  const input = record['updated_input'];
  if (typeof input === 'object' && input !== null && !Array.isArray(input))
    decision.updated_input = input as Record<string, unknown>;
  else if (input !== undefined && input !== null) problems.push(`updated_input must be an object, got ${shown(input)}`);
  const context = text('additional_context');
  if (context !== undefined) decision.additional_context = context;
  return { decision, warnings, ...(problems.length === 0 ? {} : { problems }) };
}
