import type { AgentAdapter, AgentCall, WireVerdict } from '../agent-adapter.ts';
import { canonicalContext, isObject } from '../canonical-call.ts';
import type { WireAnswer } from '../preset.ts';
import { windsurfSettings } from './windsurf-settings.ts';
import { windsurfTool } from './windsurf-tools.ts';
import { WINDSURF_GUARDS, writeWindsurfAnswer } from './windsurf-wire-answer.ts';

const INSTALLED = [
  'pre_run_command',
  'pre_read_code',
  'pre_write_code',
  'pre_mcp_tool_use',
  'post_run_command',
  'post_read_code',
  'post_write_code',
  'post_mcp_tool_use',
];

/**
 * Windsurf's Cascade, as `hookline bridge windsurf` meets it — written from Cascade's hooks reference
 * (docs.windsurf.com/windsurf/cascade/hooks) and tested against its documented payloads: Windsurf is an
 * editor with no command-line client to run. The payload on stdin (`agent_action_name`,
 * `trajectory_id`, `execution_id`, `timestamp`, `tool_info`); the answer as an exit code alone — exit 2
 * with the reason on stderr blocks a pre-hook, anything else lets it go on, so a bridge that cannot
 * start at all lets the action through (`hookline doctor windsurf` checks that it starts).
 */
export const windsurfAgent: AgentAdapter = {
  name: 'windsurf',
  aliases: ['cascade', 'windsurf-cascade'],
  title: 'Windsurf',
  readCall(payload) {
    if (!isObject(payload)) return { problem: 'the hook input is not a JSON object' };
    const event = payload['agent_action_name'];
    if (typeof event !== 'string' || event === '')
      return { problem: 'the hook input has no "agent_action_name": it is not a Windsurf hook input' };
    return { agentEvent: event, payload };
  },
  nativeEvent: (call) => ({ event: call.agentEvent, context: { ...call.payload } }),
  canonicalEvent(call) {
    const tool = windsurfTool(call);
    if (tool === undefined) return undefined;
    const context = canonicalContext(call, {
      agent: 'windsurf',
      sessionField: 'trajectory_id',
      tool: { name: tool.agentName, input: tool.original },
      canonicalTool: () => tool,
    });
    delete context['agent_action_name'];
    const result = isObject(call.payload['tool_info']) ? call.payload['tool_info']['mcp_result'] : undefined;
    if (result !== undefined) context['tool_response'] = { output: result };
    return { event: call.agentEvent.startsWith('pre_') ? 'pre_tool_use' : 'post_tool_use', context };
  },
  presetEvent: (agentEvent, form) =>
    form === 'native'
      ? agentEvent
      : /^pre_(run_command|read_code|write_code|mcp_tool_use)$/.test(agentEvent)
        ? 'pre_tool_use'
        : /^post_(run_command|read_code|write_code|mcp_tool_use)$/.test(agentEvent)
          ? 'post_tool_use'
          : undefined,
  isGuard: (call) => WINDSURF_GUARDS.includes(call.agentEvent),
  writeAnswer: ({ call, outcome }) => writeWindsurfAnswer(outcome, call.agentEvent),
  writeFailure(call, reason) {
    // Exit 2 blocks every pre-hook and is an error message on a post-hook, which goes on regardless.
    if (call === undefined || WINDSURF_GUARDS.includes(call.agentEvent)) return { exitCode: 2, stderr: `${reason}\n` };
    return { exitCode: 0, stderr: `${reason}\n` };
  },
  // Cascade's reference names no shell; the entry Hookline writes needs nothing beyond POSIX sh.
  hookShell: 'sh',
  readWire: readWindsurfWire,
  doctorPayload: (cwd) => ({
    agent_action_name: 'pre_run_command',
    trajectory_id: 'hookline-doctor',
    execution_id: 'hookline-doctor',
    timestamp: new Date().toISOString(),
    tool_info: { command_line: 'echo hookline doctor', cwd },
  }),
  // Cascade's reference gives hooks no timeout, so none is known; the bridge answers well within a minute.
  defaultTimeoutMs: 60_000,
  bridgeDeadlineMs: 30_000,
  settings: windsurfSettings(INSTALLED),
};

/** What Cascade's reference says it does with an answer: exit 2 blocks a pre-hook; anything else goes on. */
function readWindsurfWire(answer: WireAnswer, call: AgentCall): WireVerdict {
  const stderr = answer.stderr?.trim() ?? '';
  if (answer.exitCode === 2 && WINDSURF_GUARDS.includes(call.agentEvent))
    return { verdict: 'block', reason: stderr === '' ? 'exit 2' : stderr };
  if (answer.exitCode !== 0) return { verdict: 'proceed', reason: `exit ${answer.exitCode}: Windsurf goes on` };
  return { verdict: 'proceed' };
}
