import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import type { AgentAdapter, AgentCall, WireVerdict } from '../agent-adapter.ts';
import { canonicalContext, isObject, presetEventBy } from '../canonical-call.ts';
import type { WireAnswer } from '../preset.ts';
import { copilotSettings } from './copilot-settings.ts';
import { canonicalCopilotTool } from './copilot-tools.ts';
import { COPILOT_BLOCK_EVENTS, writeCopilotAnswer } from './copilot-wire-answer.ts';

// Copilot's events and the canonical agent events they are; absent: no canonical equivalent.
const CANONICAL_EVENTS: Readonly<Record<string, string>> = {
  preToolUse: 'pre_tool_use',
  postToolUse: 'post_tool_use',
  userPromptSubmitted: 'user_prompt_submit',
  sessionStart: 'session_start',
  sessionEnd: 'session_stop',
  agentStop: 'stop',
  preCompact: 'pre_compact',
};

// The one event whose answer may stop a tool call: a failure of Hookline refuses it.
const GUARDS = new Set(['preToolUse']);

const INSTALLED = ['preToolUse', 'postToolUse', 'userPromptSubmitted', 'sessionStart', 'agentStop'];

/**
 * GitHub Copilot CLI, as `hookline bridge copilot` meets it (measured with `@github/copilot` 1.0.102):
 * camelCase payloads on stdin that do not name their event (`sessionId`, `timestamp`, `cwd`,
 * `toolName`, `toolArgs`, …) — so each entry's command line names it, `--event preToolUse`; the answer
 * as exit 0 with one JSON object in the forms Copilot honours (`writeCopilotAnswer`), a deny always
 * with a reason; entries in `.github/hooks/hookline.json` with a `timeoutSec` above the bridge's
 * deadline, since Copilot runs the tool when a hook times out.
 */
export const copilotAgent: AgentAdapter = {
  name: 'copilot',
  aliases: ['github-copilot', 'copilot-cli'],
  title: 'GitHub Copilot CLI',
  readCall(payload, entryEvent) {
    if (!isObject(payload)) return { problem: 'the hook input is not a JSON object' };
    // Copilot names the event only in permissionRequest's `hookName`; the entry names it for the rest.
    const event = entryEvent ?? payload['hookName'];
    if (typeof event !== 'string' || event === '')
      return {
        problem:
          "GitHub Copilot CLI's hook input does not name its event and the command line gives none: run `hookline install copilot` again (its entries end in --event <event>)",
      };
    return { agentEvent: event, payload };
  },
  nativeEvent: (call) => ({ event: call.agentEvent, context: { ...call.payload } }),
  canonicalEvent(call) {
    const event = copilotAgent.presetEvent(call.agentEvent, 'canonical');
    if (event === undefined) return undefined;
    const tool = call.payload['toolName'];
    const context = canonicalContext(call, {
      agent: 'copilot',
      sessionField: 'sessionId',
      tool: typeof tool === 'string' ? { name: tool, input: argsOf(call) } : undefined,
      canonicalTool: canonicalCopilotTool,
    });
    const result = call.payload['toolResult'];
    if (isObject(result)) context['tool_response'] = result;
    if (typeof call.payload['transcriptPath'] === 'string') context['transcript_path'] = call.payload['transcriptPath'];
    return { event, context };
  },
  presetEvent: presetEventBy(CANONICAL_EVENTS),
  isGuard: (call) => GUARDS.has(call.agentEvent),
  writeAnswer({ call, outcome, form }) {
    if (form === 'native' || outcome.updated_input === undefined) return writeCopilotAnswer(outcome, call.agentEvent);
    return writeCopilotAnswer({ ...outcome, updated_input: nativeArgs(call, outcome) }, call.agentEvent);
  },
  writeFailure(call, reason) {
    // Unknown call: a deny with the reason, which preToolUse honours and every other event ignores.
    if (call === undefined)
      return {
        exitCode: 0,
        stdout: `${JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: reason })}\n`,
        stderr: `${reason}\n`,
      };
    const base = { event: call.agentEvent, hooks: [], warnings: [] };
    if (GUARDS.has(call.agentEvent)) return writeCopilotAnswer({ ...base, decision: 'block', reason }, call.agentEvent);
    return writeCopilotAnswer({ ...base, decision: 'proceed', system_messages: [reason] }, call.agentEvent);
  },
  // Copilot runs an entry's `bash` line with bash (measured).
  hookShell: 'bash',
  readWire: readCopilotWire,
  doctorPayload: (cwd) => ({
    hookName: 'preToolUse',
    sessionId: 'hookline-doctor',
    timestamp: Date.now(),
    cwd,
    toolName: 'bash',
    toolArgs: { command: 'echo hookline doctor', description: 'hookline doctor' },
  }),
  // Copilot's hooks: 30 s unless the entry sets `timeoutSec`; a timed-out hook lets the tool run.
  defaultTimeoutMs: 30_000,
  bridgeDeadlineMs: 55_000,
  settings: copilotSettings(INSTALLED),
};

// Copilot sends `toolArgs` as an object (measured, 1.0.102); its older reference shows a JSON string.
function argsOf(call: AgentCall): Readonly<Record<string, unknown>> {
  const args = call.payload['toolArgs'];
  if (isObject(args)) return args;
  if (typeof args !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

// A canonical rewrite as Copilot's arguments: the fields it gave over the call's, in Copilot's names
// (`modifiedArgs` replaces the arguments whole).
function nativeArgs(call: AgentCall, outcome: EmitOutcome): Record<string, unknown> {
  const { file_path: path, content, ...rest } = outcome.updated_input ?? {};
  return {
    ...argsOf(call),
    ...rest,
    ...(path === undefined ? {} : { path }),
    ...(content === undefined ? {} : { file_text: content }),
  };
}

/**
 * What Copilot does with an answer (measured): at exit 0 a JSON object is read — preToolUse's
 * `permissionDecision`, `decision: "block"` where honoured — and anything else is ignored (the tool
 * runs); a non-zero exit denies preToolUse ("hook errored"; exit 2: "hook exited with code 2", its
 * stderr dropped).
 */
function readCopilotWire(answer: WireAnswer, call: AgentCall): WireVerdict {
  const guard = call.agentEvent === 'preToolUse';
  if (answer.exitCode !== 0)
    return guard
      ? { verdict: 'block', reason: `exit ${answer.exitCode}: Copilot denies the tool without a reason` }
      : { verdict: 'proceed', reason: `exit ${answer.exitCode}: Copilot goes on` };
  const text = answer.stdout?.trim() ?? '';
  if (text === '') return { verdict: 'proceed' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { verdict: 'invalid', reason: 'stdout at exit 0 is not JSON: Copilot ignores it and runs the tool' };
  }
  if (!isObject(body)) return { verdict: 'invalid', reason: 'stdout at exit 0 is not a JSON object' };
  const said = body['permissionDecisionReason'];
  const reason = typeof said === 'string' && said.trim() !== '' ? { reason: said } : {};
  if (guard) {
    if (body['permissionDecision'] === 'deny') return { verdict: 'block', ...reason };
    if (body['permissionDecision'] === 'ask') return { verdict: 'ask', ...reason };
    if (body['permissionDecision'] === 'allow' || body['modifiedArgs'] !== undefined) return { verdict: 'allow' };
  }
  if (COPILOT_BLOCK_EVENTS.includes(call.agentEvent) && body['decision'] === 'block')
    return { verdict: 'block', ...(typeof body['reason'] === 'string' ? { reason: body['reason'] } : {}) };
  return { verdict: 'proceed' };
}
