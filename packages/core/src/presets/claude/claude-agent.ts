import type { AgentAdapter, AgentCall, BridgedEvent, WireVerdict } from '../agent-adapter.ts';
import { presetEventBy } from '../canonical-call.ts';
import { matcherGroupSettings } from '../matcher-group-settings.ts';
import type { WireAnswer } from '../preset.ts';
import { canonicalClaudeTool } from './claude-tools.ts';
import { writeClaudeAnswer } from './claude-wire-answer.ts';

// Claude Code's events and the canonical agent events they are; absent: no canonical equivalent.
const CANONICAL_EVENTS: Readonly<Record<string, string>> = {
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  PostToolUseFailure: 'post_tool_use',
  UserPromptSubmit: 'user_prompt_submit',
  SessionStart: 'session_start',
  SessionEnd: 'session_stop',
  Stop: 'stop',
  SubagentStop: 'task_completed',
  PreCompact: 'pre_compact',
  Notification: 'notification',
};

// The events whose answer may stop a tool call: a failure of Hookline refuses it.
const GUARDS = new Set(['PreToolUse', 'PermissionRequest']);

// The events `hookline install claude` writes an entry for, with the matcher of its group ("*": every
// tool; none: the event has no matcher, or every source/reason).
const INSTALLED: Readonly<Record<string, string | undefined>> = {
  PreToolUse: '*',
  PermissionRequest: '*',
  PostToolUse: '*',
  PostToolUseFailure: '*',
  UserPromptSubmit: undefined,
  SessionStart: undefined,
  SessionEnd: undefined,
  Stop: undefined,
  SubagentStop: undefined,
  PreCompact: undefined,
  Notification: undefined,
};

/**
 * Claude Code, as `hookline bridge claude` meets it: the hook input JSON on stdin (`hook_event_name`,
 * `session_id`, `tool_name`, `tool_input`, …), the answer as exit 0 with one JSON object on stdout
 * (`writeClaudeAnswer`), entries in `.claude/settings.json` as matcher groups with a `timeout` in
 * seconds, and `onFailure: "block"` on guard events so that even a bridge that cannot start
 * refuses the call.
 */
export const claudeAgent: AgentAdapter = {
  name: 'claude',
  aliases: ['claude-code'],
  title: 'Claude Code',
  readCall(payload) {
    if (!isObject(payload)) return { problem: 'the hook input is not a JSON object' };
    const event = payload['hook_event_name'];
    if (typeof event !== 'string' || event === '')
      return { problem: 'the hook input has no "hook_event_name": it is not a Claude Code hook input' };
    return { agentEvent: event, payload };
  },
  nativeEvent: (call) => ({ event: call.agentEvent, context: { ...call.payload } }),
  canonicalEvent(call) {
    const event = claudeAgent.presetEvent(call.agentEvent, 'canonical');
    if (event === undefined) return undefined;
    return { event, context: canonicalContext(call) };
  },
  presetEvent: presetEventBy(CANONICAL_EVENTS),
  isGuard: (call) => GUARDS.has(call.agentEvent),
  writeAnswer({ call, outcome, form }) {
    if (form === 'native' || outcome.updated_input === undefined) return writeClaudeAnswer(outcome, call.agentEvent);
    // A canonical hook may rewrite part of the input: the fields it did not give keep their values.
    const original = isObject(call.payload['tool_input']) ? call.payload['tool_input'] : {};
    return writeClaudeAnswer({ ...outcome, updated_input: { ...original, ...outcome.updated_input } }, call.agentEvent);
  },
  writeFailure(call, reason) {
    if (call === undefined) return { exitCode: 2, stderr: `${reason}\n` };
    if (GUARDS.has(call.agentEvent))
      return writeClaudeAnswer({ ...failed(call), decision: 'block', reason }, call.agentEvent);
    return writeClaudeAnswer({ ...failed(call), system_messages: [reason] }, call.agentEvent);
  },
  readWire: readClaudeWire,
  doctorPayload: (cwd) => ({
    session_id: 'hookline-doctor',
    transcript_path: '',
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'echo hookline doctor', description: 'hookline doctor: a synthetic call' },
    tool_use_id: 'toolu_hookline_doctor',
  }),
  // A command without `args` "runs through a shell (bash on POSIX)", with CLAUDE_PROJECT_DIR set.
  hookShell: 'bash',
  hookEnvironment: (projectDir) => ({ CLAUDE_PROJECT_DIR: projectDir }),
  // Claude Code's hooks reference: a command hook gets 10 minutes unless its entry sets `timeout`.
  defaultTimeoutMs: 600_000,
  bridgeDeadlineMs: 55_000,
  settings: {
    ...matcherGroupSettings({
      project: { under: 'project', path: '.claude/settings.json' },
      user: { under: 'home', path: '.claude/settings.json' },
      events: INSTALLED,
      timeoutUnit: 'seconds',
      entryKeys: (event) => (GUARDS.has(event) ? { onFailure: 'block' } : {}),
    }),
    // Claude Code reads the personal, uncommitted file too: a disableAllHooks there turns every hook off.
    alsoRead: [{ under: 'project', path: '.claude/settings.local.json' }],
    // Claude Code's settings schema: "disableAllHooks: Disable all hooks and statusLine execution".
    problems: (settings) =>
      settings['disableAllHooks'] === true
        ? ['"disableAllHooks": true — Claude Code runs no hook at all (remove it to let hooks fire)']
        : [],
  },
};

// The canonical context: the payload's fields, the tool as the canonical table names it, and
// Claude Code's own names kept under agent_*.
function canonicalContext(call: AgentCall): BridgedEvent['context'] {
  const { hook_event_name: _event, ...payload } = call.payload;
  const context: Record<string, unknown> = { ...payload, agent: 'claude', agent_event: call.agentEvent };
  const tool = payload['tool_name'];
  if (typeof tool === 'string') {
    const input = isObject(payload['tool_input']) ? payload['tool_input'] : {};
    const canonical = canonicalClaudeTool(tool, input);
    Object.assign(context, canonical.fields, {
      tool_name: canonical.toolName,
      tool_input: canonical.input,
      agent_tool_name: tool,
    });
  }
  if (call.agentEvent === 'PostToolUseFailure') context['tool_failed'] = true;
  if (call.agentEvent === 'SubagentStop') Object.assign(context, { kind: 'subagent', id: payload['agent_id'] });
  return context;
}

function failed(call: AgentCall) {
  return { event: call.agentEvent, decision: 'proceed' as const, hooks: [], warnings: [] };
}

/** What Claude Code does with an answer: exit 2 blocks with stderr; exit 0 reads one JSON object, if any. */
function readClaudeWire(answer: WireAnswer, call: AgentCall): WireVerdict {
  if (answer.exitCode === 2)
    return { verdict: 'block', reason: answer.stderr?.trim() || 'exit 2 with nothing on stderr' };
  if (answer.exitCode !== 0)
    return {
      verdict: 'proceed',
      reason: `exit ${answer.exitCode} is a non-blocking error for Claude Code (only onFailure: "block" entries refuse then)`,
    };
  const text = answer.stdout?.trim() ?? '';
  if (text === '') return { verdict: 'proceed' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { verdict: 'invalid', reason: 'stdout at exit 0 is not JSON' };
  }
  if (!isObject(body)) return { verdict: 'invalid', reason: 'stdout at exit 0 is not a JSON object' };
  const specific = isObject(body['hookSpecificOutput']) ? body['hookSpecificOutput'] : undefined;
  if (specific !== undefined && specific['hookEventName'] !== call.agentEvent)
    return { verdict: 'invalid', reason: `hookSpecificOutput.hookEventName is not "${call.agentEvent}"` };
  const permission = specific?.['permissionDecision'];
  const permissionReason = reasonOf(specific?.['permissionDecisionReason']);
  if (permission === 'deny') return { verdict: 'block', ...permissionReason };
  if (permission === 'allow' || permission === 'ask') return { verdict: permission, ...permissionReason };
  const decision = isObject(specific?.['decision']) ? specific['decision'] : undefined;
  if (decision?.['behavior'] === 'deny') return { verdict: 'block', ...reasonOf(decision['message']) };
  if (decision?.['behavior'] === 'allow') return { verdict: 'allow' };
  if (body['decision'] === 'block') return { verdict: 'block', ...reasonOf(body['reason']) };
  if (body['continue'] === false) return { verdict: 'block', ...reasonOf(body['stopReason']) };
  return { verdict: 'proceed' };
}

function reasonOf(value: unknown): { reason?: string } {
  return typeof value === 'string' && value !== '' ? { reason: value } : {};
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
