import type { HookDecision } from '../../decisions/decision.ts';
import { nearestWord } from '../../config/nearest-word.ts';
import { shown } from '../../decisions/decision-problem.ts';
import type { PresetAnswer } from '../preset.ts';

const TOP_LEVEL_KEYS = [
  'continue',
  'stopReason',
  'suppressOutput',
  'systemMessage',
  'decision',
  'reason',
  'hookSpecificOutput',
];
const SPECIFIC_KEYS = [
  'hookEventName',
  'permissionDecision',
  'permissionDecisionReason',
  'updatedInput',
  'additionalContext',
  'decision',
  'updatedMCPToolOutput',
];
// A decision while it is being read: the same fields as HookDecision, set one by one.
type DecisionDraft = { -readonly [Field in keyof HookDecision]: HookDecision[Field] };

// Fields of hookSpecificOutput that decide; found at the top level they cannot be honoured.
const MISPLACED_DECISIONS = ['permissionDecision', 'updatedInput'];

const PERMISSION_DECISIONS: Readonly<Record<string, HookDecision['decision']>> = {
  allow: 'allow',
  deny: 'block',
  ask: 'ask',
};

/**
 * Reads Claude Code's JSON hook output — a command's stdout at exit 0, an HTTP hook's 2xx body — as
 * a Hookline decision with extras:
 *
 * - `continue: false` → `continue: false` with `stopReason` as `stop_reason`; `systemMessage` →
 *   `system_message`; `suppressOutput` → the report's `suppress_output`.
 * - `decision: "block"` with `reason` → `block` (PostToolUse, Stop, SubagentStop, UserPromptSubmit,
 *   and PreToolUse's older form); `decision: "approve"` (PreToolUse's older form) → `allow`.
 * - `hookSpecificOutput.permissionDecision` `allow` | `deny` | `ask` with `permissionDecisionReason`
 *   → `allow` | `block` | `ask`, which beats a top-level `decision`; `updatedInput` →
 *   `updated_input`; `additionalContext` → `additional_context`.
 * - PermissionRequest's `hookSpecificOutput.decision.behavior` `allow` (with `updatedInput`) | `deny`
 *   (with `message`) → `allow` | `block`; `interrupt: true` → `continue: false`.
 *
 * A field that decides (`continue`, `decision`, `hookSpecificOutput` and its `permissionDecision`,
 * `updatedInput`, `decision.behavior`) with a wrong type or value is a problem: the answer cannot be
 * honoured, the hook failed (as Claude Code reports "Hook JSON output validation failed"), and
 * `on_error` decides. Other wrong types and unknown keys are ignored with a warning (a misplaced
 * `permissionDecision` at the top level is the usual mistake). `undefined` when `value` is not a
 * JSON object.
 */
export function readClaudeAnswer(value: unknown, event: string): PresetAnswer | undefined {
  if (!isObject(value)) return undefined;
  const warnings: string[] = [];
  // Fields that decide, given a wrong type or value: the answer cannot be honoured.
  const problems: string[] = [];
  const details: Record<string, unknown> = {};
  let decision: DecisionDraft = { decision: 'proceed' };
  const text = (record: Record<string, unknown>, key: string, where = ''): string | undefined => {
    const field = record[key];
    if (field === undefined || field === null) return undefined;
    if (typeof field === 'string') return field;
    warnings.push(`${where}${key} must be a string, got ${JSON.stringify(field)}; ignored`);
    return undefined;
  };
  unknownKeys(value, TOP_LEVEL_KEYS, '', warnings);
  // A decision written one level too high is still a decision the hook meant.
  for (const key of MISPLACED_DECISIONS) {
    if (value[key] !== undefined)
      problems.push(
        `${key} belongs inside hookSpecificOutput: write {"hookSpecificOutput": {"hookEventName": "${event}", "${key}": …}}`,
      );
  }

  if (value['continue'] === false) {
    decision.continue = false;
    const stop = text(value, 'stopReason');
    if (stop !== undefined) decision.stop_reason = stop;
  } else if (value['continue'] !== undefined && value['continue'] !== true) {
    problems.push(`continue must be true or false, got ${shown(value['continue'])}`);
  }
  const message = text(value, 'systemMessage');
  if (message !== undefined) decision.system_message = message;
  if (value['suppressOutput'] === true) details['suppress_output'] = true;

  const reason = text(value, 'reason');
  const topDecision = value['decision'];
  if (topDecision === 'block')
    decision = { ...decision, decision: 'block', reason: reason ?? `blocked by the ${event} hook` };
  else if (topDecision === 'approve')
    decision = { ...decision, decision: 'allow', ...(reason === undefined ? {} : { reason }) };
  else if (topDecision !== undefined && topDecision !== null) {
    const hint =
      topDecision === 'deny' || topDecision === 'allow' || topDecision === 'ask'
        ? ` — write {"hookSpecificOutput": {"hookEventName": "${event}", "permissionDecision": "${topDecision}"}}`
        : '';
    problems.push(`decision must be "block" (or PreToolUse's older "approve"), got ${shown(topDecision)}${hint}`);
  }

  const specific = value['hookSpecificOutput'];
  if (specific !== undefined && specific !== null) {
    if (!isObject(specific)) {
      problems.push(`hookSpecificOutput must be an object, got ${shown(specific)}`);
    } else {
      decision = { ...decision, ...readSpecific(specific, event, { warnings, problems }, text) };
    }
  }
  return {
    decision,
    warnings,
    ...(problems.length === 0 ? {} : { problems }),
    ...(Object.keys(details).length === 0 ? {} : { details }),
  };
}

function readSpecific(
  specific: Record<string, unknown>,
  event: string,
  { warnings, problems }: { readonly warnings: string[]; readonly problems: string[] },
  text: (record: Record<string, unknown>, key: string, where?: string) => string | undefined,
): Partial<DecisionDraft> {
  const where = 'hookSpecificOutput.';
  const read: Partial<DecisionDraft> = {};
  unknownKeys(specific, SPECIFIC_KEYS, where, warnings);
  const named = specific['hookEventName'];
  if (named !== undefined && named !== event)
    warnings.push(
      `hookSpecificOutput.hookEventName is ${JSON.stringify(named)}, but the event is "${event}"; read anyway`,
    );

  const permission = specific['permissionDecision'];
  if (permission !== undefined && permission !== null) {
    const kind = typeof permission === 'string' ? PERMISSION_DECISIONS[permission] : undefined;
    if (kind === undefined)
      problems.push(
        `${where}permissionDecision must be "allow", "deny" or "ask" (lower case), got ${shown(permission)}`,
      );
    else {
      read.decision = kind;
      const reason =
        text(specific, 'permissionDecisionReason', where) ??
        (kind === 'block' ? `denied by the ${event} hook` : undefined);
      if (reason !== undefined) read.reason = reason;
    }
  }
  const input = specific['updatedInput'];
  if (input !== undefined && input !== null) {
    if (isObject(input)) read.updated_input = input;
    else problems.push(`${where}updatedInput must be an object, got ${shown(input)}`);
  }
  const context = text(specific, 'additionalContext', where);
  if (context !== undefined) read.additional_context = context;

  // PermissionRequest answers with a decision object instead.
  const request = specific['decision'];
  if (request !== undefined && request !== null) readRequestDecision(request, event, read, problems, text);
  return read;
}

/** A PermissionRequest's `decision` object (`behavior` "allow" or "deny"), read into `read`. */
function readRequestDecision(
  request: unknown,
  event: string,
  read: Partial<DecisionDraft>,
  problems: string[],
  text: (record: Record<string, unknown>, key: string, where?: string) => string | undefined,
): void {
  const where = 'hookSpecificOutput.';
  if (!isObject(request)) {
    problems.push(`${where}decision must be an object with behavior "allow" or "deny", got ${shown(request)}`);
    return;
  }
  const behavior = request['behavior'];
  const message = text(request, 'message', `${where}decision.`);
  if (behavior === 'allow') {
    read.decision = 'allow';
    const updated = request['updatedInput'];
    if (isObject(updated)) read.updated_input = updated;
    else if (updated !== undefined && updated !== null)
      problems.push(`${where}decision.updatedInput must be an object, got ${shown(updated)}`);
  } else if (behavior === 'deny') {
    read.decision = 'block';
    read.reason = message ?? `denied by the ${event} hook`;
    if (request['interrupt'] === true) {
      read.continue = false;
      read.stop_reason = read.reason;
    }
  } else {
    problems.push(`${where}decision.behavior must be "allow" or "deny" (lower case), got ${shown(behavior)}`);
  }
}

function unknownKeys(
  record: Record<string, unknown>,
  known: readonly string[],
  where: string,
  warnings: string[],
): void {
  for (const key of Object.keys(record)) {
    if (known.includes(key) || (where === '' && MISPLACED_DECISIONS.includes(key))) continue;
    const near = nearestWord(key, known);
    const misplaced =
      where === '' && SPECIFIC_KEYS.includes(key)
        ? ` — it belongs inside hookSpecificOutput`
        : near === undefined
          ? ''
          : ` — did you mean ${near}?`;
    warnings.push(`unknown output field ${where}${key}${misplaced}; ignored`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
