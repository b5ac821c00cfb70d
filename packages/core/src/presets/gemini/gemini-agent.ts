import type { AgentAdapter, AgentCall, WireVerdict } from '../agent-adapter.ts';
import { canonicalContext, isObject, mergedInput, presetEventBy } from '../canonical-call.ts';
import { matcherGroupSettings } from '../matcher-group-settings.ts';
import type { WireAnswer } from '../preset.ts';
import { canonicalGeminiTool } from './gemini-tools.ts';
import { writeGeminiAnswer } from './gemini-wire-answer.ts';

// Gemini CLI's events and the canonical agent events they are; absent: no canonical equivalent.
const CANONICAL_EVENTS: Readonly<Record<string, string>> = {
  BeforeTool: 'pre_tool_use',
  AfterTool: 'post_tool_use',
  BeforeAgent: 'user_prompt_submit',
  AfterAgent: 'stop',
  SessionStart: 'session_start',
  SessionEnd: 'session_stop',
  PreCompress: 'pre_compact',
  Notification: 'notification',
};

// The events whose answer may stop a tool call: a failure of Hookline refuses it.
const GUARDS = new Set(['BeforeTool']);

// The events `hookline install gemini` writes an entry for; no matcher: every tool, every source.
const INSTALLED: Readonly<Record<string, undefined>> = Object.fromEntries(
  Object.keys(CANONICAL_EVENTS).map((event) => [event, undefined]),
);

/**
 * Gemini CLI, as `hookline bridge gemini` meets it (measured with `@google/gemini-cli` 0.61): the
 * payload on stdin (`hook_event_name`, `session_id`, `tool_name`, `tool_input`, …); the answer as exit
 * 0 with one JSON object (`writeGeminiAnswer`) — never exit 2, which Gemini CLI ignores when stderr is
 * empty; entries in `.gemini/settings.json` with a `timeout` in milliseconds above the bridge's
 * deadline, since Gemini CLI runs the tool when a hook's answer comes after its timeout.
 */
export const geminiAgent: AgentAdapter = {
  name: 'gemini',
  aliases: ['gemini-cli'],
  title: 'Gemini CLI',
  readCall(payload) {
    if (!isObject(payload)) return { problem: 'the hook input is not a JSON object' };
    const event = payload['hook_event_name'];
    if (typeof event !== 'string' || event === '')
      return { problem: 'the hook input has no "hook_event_name": it is not a Gemini CLI hook input' };
    return { agentEvent: event, payload };
  },
  nativeEvent: (call) => ({ event: call.agentEvent, context: { ...call.payload } }),
  canonicalEvent(call) {
    const event = geminiAgent.presetEvent(call.agentEvent, 'canonical');
    if (event === undefined) return undefined;
    const tool = call.payload['tool_name'];
    const input = call.payload['tool_input'];
    const mcp = call.payload['mcp_context'];
    return {
      event,
      context: canonicalContext(call, {
        agent: 'gemini',
        tool: typeof tool === 'string' ? { name: tool, input: isObject(input) ? input : {} } : undefined,
        canonicalTool: (name, given) => canonicalGeminiTool(name, given, isObject(mcp) ? mcp : undefined),
      }),
    };
  },
  presetEvent: presetEventBy(CANONICAL_EVENTS),
  isGuard: (call) => GUARDS.has(call.agentEvent),
  writeAnswer({ call, outcome, form }) {
    if (form === 'native' || outcome.updated_input === undefined) return writeGeminiAnswer(outcome, call.agentEvent);
    return writeGeminiAnswer({ ...outcome, updated_input: mergedInput(call, outcome.updated_input) }, call.agentEvent);
  },
  writeFailure(call, reason) {
    const base = { event: call?.agentEvent ?? 'BeforeTool', hooks: [], warnings: [] };
    // Unknown call: a deny, which every Gemini CLI event that can stop anything honours.
    if (call === undefined || GUARDS.has(call.agentEvent))
      return writeGeminiAnswer({ ...base, decision: 'block', reason }, base.event);
    return writeGeminiAnswer({ ...base, decision: 'proceed', system_messages: [reason] }, call.agentEvent);
  },
  // Gemini CLI runs hook commands as `bash -c` on Linux and macOS (its shell configuration).
  hookShell: 'bash',
  readWire: readGeminiWire,
  doctorPayload: (cwd) => ({
    session_id: 'hookline-doctor',
    transcript_path: '',
    cwd,
    hook_event_name: 'BeforeTool',
    timestamp: new Date(0).toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command: 'echo hookline doctor', description: 'hookline doctor: a synthetic call' },
  }),
  // Gemini CLI's hooks reference: 60 s unless the entry sets `timeout`.
  defaultTimeoutMs: 60_000,
  bridgeDeadlineMs: 55_000,
  settings: matcherGroupSettings({
    project: { under: 'project', path: '.gemini/settings.json' },
    user: { under: 'home', path: '.gemini/settings.json' },
    events: INSTALLED,
    timeoutUnit: 'milliseconds',
  }),
};

/**
 * What Gemini CLI does with an answer (measured): exit 2 blocks with stderr, but runs the tool when
 * stderr is empty; other non-zero exits run it; exit 0 reads one JSON object.
 */
function readGeminiWire(answer: WireAnswer, _call: AgentCall): WireVerdict {
  const stderr = answer.stderr?.trim() ?? '';
  if (answer.exitCode === 2)
    return stderr === ''
      ? { verdict: 'proceed', reason: 'exit 2 with nothing on stderr: Gemini CLI runs the tool' }
      : { verdict: 'block', reason: stderr };
  if (answer.exitCode !== 0)
    return { verdict: 'proceed', reason: `exit ${answer.exitCode} is a warning for Gemini CLI: it runs the tool` };
  const text = answer.stdout?.trim() ?? '';
  if (text === '') return { verdict: 'proceed' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { verdict: 'invalid', reason: 'stdout at exit 0 is not JSON' };
  }
  if (!isObject(body)) return { verdict: 'invalid', reason: 'stdout at exit 0 is not a JSON object' };
  const reason = typeof body['reason'] === 'string' && body['reason'] !== '' ? { reason: body['reason'] } : {};
  if (body['decision'] === 'deny' || body['decision'] === 'block') return { verdict: 'block', ...reason };
  if (body['continue'] === false) return { verdict: 'block', ...reason };
  if (body['decision'] === 'allow') return { verdict: 'allow', ...reason };
  if (body['decision'] === 'ask') return { verdict: 'ask', ...reason };
  return { verdict: 'proceed' };
}
