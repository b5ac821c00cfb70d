import type { DecisionKind, OutcomeExtra } from '../../decisions/decision.ts';
import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import { definePreset } from '../define-preset.ts';
import { cursorAgent } from './cursor-agent.ts';
import { readJsonHookExit } from '../json-hook-exit.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { readCursorAnswer } from './cursor-answer.ts';
import { cursorDialect } from './cursor-dialect.ts';
import { writeCursorAnswer } from './cursor-wire-answer.ts';

const TOOL = ['tool_name'];
const GATE: readonly DecisionKind[] = ['allow', 'ask', 'block'];

interface CursorEvent {
  readonly honours: readonly DecisionKind[];
  readonly extras?: readonly OutcomeExtra[];
  readonly matcherFields: readonly string[];
  readonly endsSession?: boolean;
  readonly description: string;
}

// Cursor's agent hook events (its published hooks reference) and what each honours.
const CATALOG: Readonly<Record<string, CursorEvent>> = {
  preToolUse: {
    honours: GATE,
    extras: ['updated_input'],
    matcherFields: TOOL,
    description: 'before any tool call; may allow, ask, deny it or change its input',
  },
  postToolUse: { honours: [], extras: ['additional_context'], matcherFields: TOOL, description: 'after a tool call' },
  postToolUseFailure: { honours: [], matcherFields: TOOL, description: 'after a tool call failed' },
  beforeShellExecution: { honours: GATE, matcherFields: ['command'], description: 'before a shell command runs' },
  afterShellExecution: { honours: [], matcherFields: ['command'], description: 'after a shell command ran' },
  beforeMCPExecution: { honours: GATE, matcherFields: TOOL, description: 'before an MCP tool call' },
  afterMCPExecution: { honours: [], matcherFields: TOOL, description: 'after an MCP tool call' },
  beforeReadFile: { honours: ['allow', 'block'], matcherFields: [], description: 'before the agent reads a file' },
  afterFileEdit: { honours: [], matcherFields: [], description: 'after the agent edited a file' },
  beforeSubmitPrompt: {
    honours: ['block'],
    matcherFields: [],
    description: 'before a prompt is sent; block keeps it back',
  },
  stop: {
    honours: ['block'],
    matcherFields: [],
    description: 'the agent loop ends; block continues it with the reason',
  },
  subagentStart: { honours: ['allow', 'block'], matcherFields: [], description: 'a subagent is about to start' },
  subagentStop: { honours: ['block'], matcherFields: [], description: 'a subagent ends; block continues it' },
  sessionStart: { honours: [], extras: ['additional_context'], matcherFields: [], description: 'a session starts' },
  sessionEnd: { honours: [], matcherFields: [], endsSession: true, description: 'a session ends' },
  preCompact: { honours: [], matcherFields: [], description: 'before the context is compacted' },
  afterAgentResponse: { honours: [], matcherFields: [], description: 'after the agent answered' },
  afterAgentThought: { honours: [], matcherFields: [], description: 'after a thinking block' },
};

const events: readonly EventSpec[] = Object.entries(CATALOG).map(([name, event]) => ({
  name,
  blocking: true,
  honours: event.honours,
  description: event.description,
  extras: ['system_message', ...(event.extras ?? [])],
  matcherFields: event.matcherFields,
  // Cursor's reference: a hook that fails lets the action through unless it says `failClosed: true`.
  onError: 'proceed',
  parallel: true,
  ...(event.endsSession === true ? { endsSession: true } : {}),
}));

// The fields Cursor's reference documents on stdin: the common ones, then those of single events.
const context: ContextSchema = {
  conversation_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  ...fieldsOf('string', 'generation_id', 'hook_event_name', 'model', 'cursor_version', 'user_email'),
  workspace_roots: { type: 'array' },
  ...fieldsOf('string', 'command', 'cwd', 'output', 'tool_name', 'file_path', 'content', 'prompt', 'status'),
  ...fieldsOf('string', 'url', 'result_json', 'tool_use_id'),
  tool_input: { type: 'object' },
  duration: { type: 'number' },
  ...fieldsOf('array', 'edits', 'attachments'),
};

/**
 * Cursor's agent hooks: `.cursor/hooks.json` in the project and `~/.cursor/hooks.json`,
 * `{"version": 1, "hooks": {"<event>": [{"command": "…"}]}}`; the payload on stdin; exit 0 with
 * Cursor's JSON answer (`permission`, `agent_message`, …), exit 2 blocks. Written from Cursor's
 * published reference: Cursor has no command-line client in the npm registry to measure against.
 */
export const cursorPreset: Preset = definePreset({
  name: 'cursor',
  events,
  context,
  matcherFields: TOOL,
  matcherLookaround: true,
  eventField: 'hook_event_name',
  sessionField: 'conversation_id',
  dialect: cursorDialect,
  command: {
    readExit: (exit, scope) => readJsonHookExit(exit, scope, { host: 'Cursor', exitTwoNeedsReason: false }),
    shell: 'bash',
    environment: { variables: () => ({}) },
  },
  readAnswer: readCursorAnswer,
  writeAnswer: writeCursorAnswer,
  contextJson: ({ event, ...input }) =>
    JSON.stringify(input['hook_event_name'] === undefined ? { hook_event_name: event, ...input } : input),
  configFiles: [
    { under: 'home', path: '.cursor/hooks.json' },
    { under: 'project', path: '.cursor/hooks.json' },
  ],
  recognises: (source) => source.format === 'json' && /(^|[\\/])\.cursor[\\/]hooks\.json$/.test(source.file),
  hookDefaults: { sandbox: false, timeoutMs: { command: 60_000 } },
  invalidHooks: 'fail-when-selected',
  agent: cursorAgent,
  layering: 'merge-all',
});
