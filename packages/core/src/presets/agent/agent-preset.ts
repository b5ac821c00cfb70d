import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import type { EventContext } from '../../context/event-context.ts';
import { utf8ByteLength } from '../../context/utf8-byte-length.ts';
import { agentDialect } from './agent-dialect.ts';
import { agentStarter } from './agent-starter.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { definePreset } from '../define-preset.ts';
import { readAgentExit } from './agent-exit.ts';

/**
 * The coding agent's hook reference: the context is passed in `AGENT_CODE_HOOK_CONTEXT` only "when small enough to pass
 * safely"; 16 KiB of UTF-8 keeps the environment far below the kernel's per-string limit (128 KiB).
 */
export const AGENT_CONTEXT_VARIABLE_LIMIT = 16_384;

// The coding agent's hook reference: only pre_tool_use can veto ("non-zero exit / failure vetoes the call"); the others
// inform. Hooks of one event run in config order, as the agent runs them.
const notice = (name: string, description: string): EventSpec => ({
  name,
  blocking: false,
  honours: [],
  description,
  sequential: true,
});

// What a bridged agent reads back besides a veto: a replacement tool input and context for its model.
const withContext = (spec: EventSpec): EventSpec => ({ ...spec, extras: ['additional_context', 'system_message'] });

const events: readonly EventSpec[] = [
  withContext(notice('session_start', 'a session begins')),
  { ...notice('session_stop', 'a session ends'), endsSession: true },
  withContext(notice('user_prompt_submit', 'the user submits input (including input steered in mid-turn)')),
  notice('pre_turn', 'before each agent turn'),
  notice('post_turn', 'after each agent turn'),
  {
    name: 'pre_tool_use',
    blocking: true,
    honours: ['block'],
    description: 'before a tool executes; a non-zero exit or any failure vetoes the call',
    onError: 'block',
    sequential: true,
    extras: ['updated_input', 'additional_context', 'system_message'],
  },
  withContext(notice('post_tool_use', 'after a tool completes')),
  notice('file_changed', 'after a file-mutating tool completes'),
  notice('pre_compact', 'before history compaction'),
  notice('post_compact', 'after history compaction'),
  notice('task_completed', 'a background task (`bash … &` or a subagent) finished'),
  notice('stop', 'the agent finished responding and is about to yield to the user'),
  notice('notification', "the agent needs the user's attention (budget, context full)"),
  notice('permission_denied', 'a tool call was denied'),
  notice('cwd_changed', 'the working directory changed'),
  notice('config_change', 'extensions were reloaded'),
  notice('error', 'a turn errored'),
];

// The coding agent's hook reference: the session, the tool call as the agent has it, then the fields of single events
// (`prompt` of user_prompt_submit; `id` … `duration_secs` of task_completed).
const context: ContextSchema = {
  session_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  tool_name: { type: 'string' },
  tool_input: { type: 'object' },
  ...fieldsOf('string', 'cwd', 'prompt', 'id', 'kind', 'status', 'description'),
  duration_secs: { type: 'number' },
  // Added by `hookline bridge <agent>`: which agent called, and its own names for the event and tool.
  ...fieldsOf('string', 'agent', 'agent_event', 'agent_tool_name', 'mcp_server', 'mcp_tool'),
};

/**
 * The coding-agent preset: seventeen lifecycle events, of which
 * `pre_tool_use` blocks and fails closed; `[[hooks]]` with `tool_name` and `[hooks.action]`; shell
 * actions run with `bash -c` (30 s by default) and answer by exit code; the context arrives on stdin
 * as one JSON line and in `AGENT_CODE_HOOK_*` variables.
 */
export const agentPreset: Preset = definePreset({
  name: 'agent',
  events,
  context,
  // A bridged call's tool_name is canonical (`shell`); a hook may name the agent's own tool (`Bash`) too.
  matcherFields: ['tool_name', 'agent_tool_name'],
  // Every agent's bridge maps its calls onto these events and the canonical tool names.
  canonicalAgentEvents: true,
  sessionField: 'session_id',
  dialect: agentDialect,
  command: {
    readExit: readAgentExit,
    shell: 'bash',
    environment: {
      variables(context: EventContext, contextJson: string): Record<string, string> {
        const variables: Record<string, string> = { AGENT_CODE_HOOK_EVENT: context.event };
        const tool = context['tool_name'];
        if (tool !== undefined && tool !== null)
          variables['AGENT_CODE_HOOK_TOOL'] = typeof tool === 'string' ? tool : JSON.stringify(tool);
        if (utf8ByteLength(contextJson) <= AGENT_CONTEXT_VARIABLE_LIMIT)
          variables['AGENT_CODE_HOOK_CONTEXT'] = contextJson;
        else variables['AGENT_CODE_HOOK_CONTEXT_TRUNCATED'] = '1';
        return variables;
      },
    },
    stdinLine: true,
  },
  // The coding agent runs hooks "in the project directory" as the agent's own processes: host, full environment.
  hookDefaults: { sandbox: false, timeoutMs: { command: 30_000 } },
  // A project's config sits next to the user's guards: one bad entry must not switch them off.
  invalidHooks: 'fail-when-selected',
  // A coding agent keeps its hooks in .agent/settings.toml, written without a preset line.
  ownConfigFile: { under: 'project', path: '.agent/settings.toml' },
  starter: { text: agentStarter, tryEmit: 'post_tool_use --set tool_name=file_write' },
});
