import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { AgentAdapter, AgentCall, WireVerdict } from '../agent-adapter.ts';
import { canonicalContext, isObject, mergedInput, presetEventBy } from '../canonical-call.ts';
import type { WireAnswer } from '../preset.ts';
import { cursorSettings } from './cursor-settings.ts';
import { canonicalCursorTool } from './cursor-tools.ts';
import { CURSOR_PERMISSION_EVENTS, writeCursorAnswer } from './cursor-wire-answer.ts';

// Cursor's events and the canonical agent events they are; absent: no canonical equivalent.
const CANONICAL_EVENTS: Readonly<Record<string, string>> = {
  preToolUse: 'pre_tool_use',
  postToolUse: 'post_tool_use',
  beforeShellExecution: 'pre_tool_use',
  afterShellExecution: 'post_tool_use',
  beforeMCPExecution: 'pre_tool_use',
  afterMCPExecution: 'post_tool_use',
  beforeReadFile: 'pre_tool_use',
  afterFileEdit: 'file_changed',
  beforeSubmitPrompt: 'user_prompt_submit',
  stop: 'stop',
  sessionStart: 'session_start',
  sessionEnd: 'session_stop',
  preCompact: 'pre_compact',
};

const GUARDS = new Set(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

// The per-purpose events, which every Cursor with hooks fires; not the generic preToolUse, which
// would guard a shell call a second time.
const INSTALLED = [
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'afterShellExecution',
  'afterMCPExecution',
  'afterFileEdit',
  'beforeSubmitPrompt',
  'stop',
];

/**
 * Cursor, as `hookline bridge cursor` meets it — written from Cursor's published hooks reference and
 * tested against its documented payloads (Cursor has no command-line client to run): the payload on
 * stdin (`hook_event_name`, `conversation_id`, `command`, `file_path`, …), the answer as exit 0 with
 * one JSON object (`permission`, `agent_message`, …), entries in `.cursor/hooks.json` with
 * `failClosed: true` on guards. Only preToolUse can change a tool's input: a rewrite asked for on any
 * other guard is refused with the rewrite in the reason, since running the call unchanged would ignore it.
 */
export const cursorAgent: AgentAdapter = {
  name: 'cursor',
  title: 'Cursor',
  readCall(payload) {
    if (!isObject(payload)) return { problem: 'the hook input is not a JSON object' };
    const event = payload['hook_event_name'];
    if (typeof event !== 'string' || event === '')
      return { problem: 'the hook input has no "hook_event_name": it is not a Cursor hook input' };
    return { agentEvent: event, payload };
  },
  nativeEvent: (call) => ({ event: call.agentEvent, context: { ...call.payload } }),
  canonicalEvent(call) {
    const event = cursorAgent.presetEvent(call.agentEvent, 'canonical');
    if (event === undefined) return undefined;
    const context = canonicalContext(call, {
      agent: 'cursor',
      sessionField: 'conversation_id',
      tool: toolOf(call),
      canonicalTool: canonicalCursorTool,
    });
    const output = call.payload['output'] ?? call.payload['result_json'];
    if (output !== undefined && context['tool_response'] === undefined) context['tool_response'] = { output };
    return { event, context };
  },
  presetEvent: presetEventBy(CANONICAL_EVENTS),
  isGuard: (call) => GUARDS.has(call.agentEvent),
  writeAnswer({ call, outcome, form }) {
    if (outcome.updated_input === undefined || outcome.decision === 'block')
      return writeCursorAnswer(outcome, call.agentEvent);
    if (call.agentEvent !== 'preToolUse') return writeCursorAnswer(refusedRewrite(outcome, call), call.agentEvent);
    const input = form === 'native' ? outcome.updated_input : mergedInput(call, outcome.updated_input);
    return writeCursorAnswer({ ...outcome, updated_input: input }, call.agentEvent);
  },
  writeFailure(call, reason) {
    // Unknown call: exit 2, which Cursor's reference reads as a block for every event.
    if (call === undefined) return { exitCode: 2, stderr: `${reason}\n` };
    const base = { event: call.agentEvent, hooks: [], warnings: [] };
    if (GUARDS.has(call.agentEvent)) return writeCursorAnswer({ ...base, decision: 'block', reason }, call.agentEvent);
    return writeCursorAnswer({ ...base, decision: 'proceed' }, call.agentEvent);
  },
  // Cursor's reference names no shell; the entry Hookline writes needs nothing beyond POSIX sh.
  hookShell: 'sh',
  readWire: readCursorWire,
  doctorPayload: (cwd) => ({
    hook_event_name: 'beforeShellExecution',
    conversation_id: 'hookline-doctor',
    generation_id: 'hookline-doctor',
    workspace_roots: [cwd],
    command: 'echo hookline doctor',
    cwd,
  }),
  // Cursor's hooks reference gives no default; an entry's `timeout` is in seconds.
  defaultTimeoutMs: 60_000,
  bridgeDeadlineMs: 55_000,
  settings: cursorSettings(INSTALLED, GUARDS),
};

// The tool a call is about, as Cursor names it: the per-purpose events carry no tool name.
function toolOf(
  call: AgentCall,
): { readonly name: string; readonly input: Readonly<Record<string, unknown>> } | undefined {
  const payload = call.payload;
  const text = (key: string): Record<string, unknown> =>
    typeof payload[key] === 'string' ? { [key]: payload[key] } : {};
  switch (call.agentEvent) {
    case 'beforeShellExecution':
    case 'afterShellExecution':
      return { name: 'Shell', input: { ...text('command'), ...text('cwd') } };
    case 'beforeReadFile':
      return { name: 'Read', input: { ...text('file_path'), ...text('content') } };
    case 'afterFileEdit':
      return { name: 'Edit', input: { ...text('file_path'), edits: payload['edits'] } };
    case 'beforeMCPExecution':
    case 'afterMCPExecution':
      return {
        name: `MCP:${typeof payload['tool_name'] === 'string' ? payload['tool_name'] : ''}`,
        input: mcpInput(payload['tool_input']),
      };
    default: {
      const name = payload['tool_name'];
      const input = payload['tool_input'];
      return typeof name === 'string' ? { name, input: isObject(input) ? input : {} } : undefined;
    }
  }
}

// Cursor's reference shows an MCP call's input as an object in one place and a JSON string in another.
function mcpInput(input: unknown): Readonly<Record<string, unknown>> {
  if (isObject(input)) return input;
  if (typeof input !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return isObject(parsed) ? parsed : { raw: input };
  } catch {
    return { raw: input };
  }
}

function refusedRewrite(outcome: EmitOutcome, call: AgentCall): EmitOutcome {
  return {
    ...outcome,
    decision: 'block',
    reason: `Cursor cannot change the input of ${call.agentEvent}; the hooks asked for ${JSON.stringify(outcome.updated_input)}, so the call is refused`,
  };
}

/** What Cursor's reference says it does with an answer: exit 2 blocks; exit 0 reads `permission` and the like. */
function readCursorWire(answer: WireAnswer, call: AgentCall): WireVerdict {
  if (answer.exitCode === 2) return { verdict: 'block', reason: answer.stderr?.trim() || 'exit 2' };
  if (answer.exitCode !== 0)
    return { verdict: 'proceed', reason: `exit ${answer.exitCode}: Cursor lets the action go on` };
  let body: unknown;
  try {
    body = JSON.parse(answer.stdout?.trim() || '{}');
  } catch {
    return { verdict: 'invalid', reason: 'stdout at exit 0 is not JSON' };
  }
  if (!isObject(body)) return { verdict: 'invalid', reason: 'stdout at exit 0 is not a JSON object' };
  const reason = typeof body['agent_message'] === 'string' ? { reason: body['agent_message'] } : {};
  if (CURSOR_PERMISSION_EVENTS.includes(call.agentEvent)) {
    if (body['permission'] === 'deny') return { verdict: 'block', ...reason };
    if (body['permission'] === 'ask') return { verdict: 'ask', ...reason };
    if (body['permission'] === 'allow') return { verdict: 'allow', ...reason };
  }
  if (body['continue'] === false) return { verdict: 'block', ...reason };
  if (typeof body['followup_message'] === 'string') return { verdict: 'block', reason: body['followup_message'] };
  return { verdict: 'proceed' };
}
