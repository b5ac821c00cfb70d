import type { AgentAdapter, AgentCall, WireVerdict } from '../agent-adapter.ts';
import { canonicalContext, isObject, mergedInput, presetEventBy } from '../canonical-call.ts';
import { matcherGroupSettings } from '../matcher-group-settings.ts';
import type { WireAnswer } from '../preset.ts';
import { canonicalCodexTool } from './codex-tools.ts';
import { writeCodexAnswer } from './codex-wire-answer.ts';

// Codex's events and the canonical agent events they are; absent: no canonical equivalent.
const CANONICAL_EVENTS: Readonly<Record<string, string>> = {
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  UserPromptSubmit: 'user_prompt_submit',
  SessionStart: 'session_start',
  SessionEnd: 'session_stop',
  Stop: 'stop',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
};

// The events whose answer may stop a tool call: a failure of Hookline refuses it.
const GUARDS = new Set(['PreToolUse', 'PermissionRequest']);

// The events `hookline install codex` writes an entry for; no matcher: every tool, every source.
const INSTALLED: Readonly<Record<string, undefined>> = Object.fromEntries(
  ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'].map((event) => [event, undefined]),
);

/**
 * Codex, as `hookline bridge codex` meets it (measured with `@openai/codex` 0.171): Claude Code's
 * payload on stdin (`hook_event_name`, `session_id`, `turn_id`, `tool_name`, `tool_input`, …); the
 * answer as exit 0 with one JSON object in the subset Codex honours (`writeCodexAnswer`): a deny
 * always carries a reason, and `ask` or a bare `allow`, which Codex refuses and then runs the tool, are
 * never sent; entries in `.codex/hooks.json` with a `timeout` in seconds above the bridge's deadline,
 * since Codex runs the tool when a hook times out.
 */
export const codexAgent: AgentAdapter = {
  name: 'codex',
  aliases: ['openai-codex'],
  title: 'Codex',
  readCall(payload) {
    if (!isObject(payload)) return { problem: 'the hook input is not a JSON object' };
    const event = payload['hook_event_name'];
    if (typeof event !== 'string' || event === '')
      return { problem: 'the hook input has no "hook_event_name": it is not a Codex hook input' };
    return { agentEvent: event, payload };
  },
  nativeEvent: (call) => ({ event: call.agentEvent, context: { ...call.payload } }),
  canonicalEvent(call) {
    const event = codexAgent.presetEvent(call.agentEvent, 'canonical');
    if (event === undefined) return undefined;
    const tool = call.payload['tool_name'];
    const input = call.payload['tool_input'];
    return {
      event,
      context: canonicalContext(call, {
        agent: 'codex',
        tool: typeof tool === 'string' ? { name: tool, input: isObject(input) ? input : {} } : undefined,
        canonicalTool: canonicalCodexTool,
      }),
    };
  },
  presetEvent: presetEventBy(CANONICAL_EVENTS),
  isGuard: (call) => GUARDS.has(call.agentEvent),
  writeAnswer({ call, outcome, form }) {
    if (form === 'native' || outcome.updated_input === undefined) return writeCodexAnswer(outcome, call.agentEvent);
    return writeCodexAnswer({ ...outcome, updated_input: mergedInput(call, outcome.updated_input) }, call.agentEvent);
  },
  writeFailure(call, reason) {
    // Unknown call: exit 2 with the reason on stderr blocks every Codex event that can stop anything.
    if (call === undefined) return { exitCode: 2, stderr: `${reason}\n` };
    const base = { event: call.agentEvent, hooks: [], warnings: [] };
    if (GUARDS.has(call.agentEvent)) return writeCodexAnswer({ ...base, decision: 'block', reason }, call.agentEvent);
    return writeCodexAnswer({ ...base, decision: 'proceed', system_messages: [reason] }, call.agentEvent);
  },
  // Codex runs hook commands with bash, whatever $SHELL says (measured).
  hookShell: 'bash',
  readWire: readCodexWire,
  doctorPayload: (cwd) => ({
    session_id: 'hookline-doctor',
    turn_id: 'hookline-doctor',
    transcript_path: '',
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'hookline-doctor',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'echo hookline doctor' },
    tool_use_id: 'call_hookline_doctor',
  }),
  // Codex's hooks: 600 s unless the entry sets `timeout`.
  defaultTimeoutMs: 600_000,
  bridgeDeadlineMs: 55_000,
  settings: matcherGroupSettings({
    project: { under: 'project', path: '.codex/hooks.json' },
    user: { under: 'home', path: '.codex/hooks.json' },
    events: INSTALLED,
    timeoutUnit: 'seconds',
  }),
};

/**
 * What Codex does with an answer (measured): exit 2 blocks with stderr (and runs the tool when stderr
 * is empty); other non-zero exits, plain text, `ask`, a bare `allow` and a deny without a reason run it.
 */
function readCodexWire(answer: WireAnswer, call: AgentCall): WireVerdict {
  const stderr = answer.stderr?.trim() ?? '';
  if (answer.exitCode === 2)
    return stderr === ''
      ? { verdict: 'proceed', reason: 'exit 2 with nothing on stderr: Codex runs the tool' }
      : { verdict: 'block', reason: stderr };
  if (answer.exitCode !== 0) return { verdict: 'proceed', reason: `exit ${answer.exitCode}: Codex runs the tool` };
  const text = answer.stdout?.trim() ?? '';
  if (text === '') return { verdict: 'proceed' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { verdict: 'invalid', reason: 'stdout at exit 0 is not JSON: Codex runs the tool' };
  }
  if (!isObject(body)) return { verdict: 'invalid', reason: 'stdout at exit 0 is not a JSON object' };
  const specific = isObject(body['hookSpecificOutput']) ? body['hookSpecificOutput'] : {};
  const permission = specific['permissionDecision'];
  const said = specific['permissionDecisionReason'];
  if (permission === 'deny')
    return typeof said === 'string' && said.trim() !== ''
      ? { verdict: 'block', reason: said }
      : { verdict: 'invalid', reason: 'a deny without permissionDecisionReason: Codex runs the tool' };
  if (permission === 'ask')
    return { verdict: 'invalid', reason: 'Codex refuses permissionDecision "ask" and runs the tool' };
  if (isObject(specific['decision']) && specific['decision']['behavior'] === 'deny') {
    const message = specific['decision']['message'];
    return { verdict: 'block', reason: typeof message === 'string' ? message : '' };
  }
  if (body['decision'] === 'block')
    return { verdict: 'block', ...(typeof body['reason'] === 'string' ? { reason: body['reason'] } : {}) };
  if (permission === 'allow' && call.agentEvent === 'PreToolUse') return { verdict: 'allow' };
  return { verdict: 'proceed' };
}
