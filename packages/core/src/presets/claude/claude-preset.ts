import type { OutcomeExtra, DecisionKind } from '../../decisions/decision.ts';
import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import type { EventContext } from '../../context/event-context.ts';
import { readClaudeAnswer } from './claude-answer.ts';
import { claudeDialect } from './claude-dialect.ts';
import { claudeStarter } from './claude-starter.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { definePreset } from '../define-preset.ts';
import { readClaudeExit } from './claude-exit.ts';
import { writeClaudeAnswer } from './claude-wire-answer.ts';
import { claudeAgent } from './claude-agent.ts';

// Every event honours `continue: false` and a message for the user.
const EVERY: readonly OutcomeExtra[] = ['continue', 'system_message'];
const TOOL = ['tool_name'];

interface ClaudeEvent {
  readonly honours: readonly DecisionKind[];
  readonly extras?: readonly OutcomeExtra[];
  readonly matcherFields: readonly string[];
  readonly stdoutIsContext?: boolean;
  readonly endsSession?: boolean;
  readonly description: string;
}

// Claude Code's hook events: what each can decide, which extras its host reads, which input field
// its matcher is tried against (none: the event ignores matchers).
const CATALOG: Readonly<Record<string, ClaudeEvent>> = {
  PreToolUse: {
    honours: ['allow', 'ask', 'block'],
    extras: ['updated_input', 'additional_context'],
    matcherFields: TOOL,
    description: 'before a tool call runs; may allow it without a prompt, ask the user, deny it, or change its input',
  },
  PermissionRequest: {
    honours: ['allow', 'block'],
    extras: ['updated_input'],
    matcherFields: TOOL,
    description: 'the user is about to be shown a permission dialog; may allow or deny on their behalf',
  },
  PostToolUse: {
    honours: ['block'],
    extras: ['additional_context'],
    matcherFields: TOOL,
    description: 'after a tool call succeeded; block sends the reason to the model',
  },
  PostToolUseFailure: {
    honours: ['block'],
    extras: ['additional_context'],
    matcherFields: TOOL,
    description: 'after a tool call failed; block sends the reason to the model',
  },
  UserPromptSubmit: {
    honours: ['block'],
    extras: ['additional_context'],
    matcherFields: [],
    stdoutIsContext: true,
    description: 'the user submitted a prompt, before the model sees it; block erases the prompt',
  },
  Notification: {
    honours: [],
    matcherFields: ['notification_type'],
    description: 'the host sends a notification (permission prompt, idle prompt, …)',
  },
  Stop: {
    honours: ['block'],
    matcherFields: [],
    description: 'the main agent is about to stop; block makes it continue with the reason as its instruction',
  },
  SubagentStart: {
    honours: [],
    extras: ['additional_context'],
    matcherFields: ['agent_type'],
    description: 'a subagent starts',
  },
  SubagentStop: {
    honours: ['block'],
    matcherFields: ['agent_type'],
    description: 'a subagent is about to stop; block makes it continue',
  },
  PreCompact: {
    honours: [],
    matcherFields: ['trigger'],
    description: 'before the conversation is compacted (trigger manual or auto)',
  },
  SessionStart: {
    honours: [],
    extras: ['additional_context'],
    matcherFields: ['source'],
    stdoutIsContext: true,
    description: 'a session starts or resumes (source startup, resume, clear or compact)',
  },
  SessionEnd: { honours: [], matcherFields: ['reason'], endsSession: true, description: 'a session ends' },
};

const events: readonly EventSpec[] = Object.entries(CATALOG).map(([name, event]) => ({
  name,
  // The host waits for every hook of an event; hooks that set `async: true` do not hold it.
  blocking: true,
  honours: event.honours,
  description: event.description,
  extras: [...EVERY, ...(event.extras ?? [])],
  matcherFields: event.matcherFields,
  // Claude Code: a hook that fails (exit code other than 0 and 2, timeout, crash) does not stop anything.
  onError: 'proceed',
  parallel: true,
  runIdenticalOnce: true,
  ...(event.stdoutIsContext === true ? { stdoutIsContext: true } : {}),
  ...(event.endsSession === true ? { endsSession: true } : {}),
}));

// The common input fields, then those of single events, with the types Claude Code sends.
const context: ContextSchema = {
  session_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  ...fieldsOf('string', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name', 'tool_name'),
  ...fieldsOf('object', 'tool_input', 'tool_response'),
  ...fieldsOf('string', 'tool_use_id', 'error'),
  is_interrupt: { type: 'boolean' },
  ...fieldsOf('string', 'prompt', 'message', 'title', 'notification_type'),
  stop_hook_active: { type: 'boolean' },
  ...fieldsOf(
    'string',
    'agent_id',
    'agent_type',
    'agent_transcript_path',
    'trigger',
    'custom_instructions',
    'source',
    'model',
    'reason',
  ),
  permission_suggestions: { type: 'array' },
};

/**
 * Claude Code's hooks (its public hooks reference): settings files with a `hooks` object keyed by
 * event, matcher groups, and command, http, prompt and agent hooks; the host's JSON input passed
 * through on stdin; exit codes 0 / 2 / other and the JSON output format; hooks of one event run in
 * parallel, identical ones once. Failures do not stop the host, as in Claude Code, but are reported
 * `failed`; `"on_error": "block"` makes a hook fail closed.
 */
export const claudePreset: Preset = definePreset({
  name: 'claude',
  events,
  context,
  matcherFields: TOOL,
  // Claude Code compiles matchers as JavaScript regular expressions: `^(?!Read).*` is valid there.
  matcherLookaround: true,
  eventField: 'hook_event_name',
  sessionField: 'session_id',
  dialect: claudeDialect,
  command: {
    readExit: readClaudeExit,
    // Published hooks use bash syntax in inline commands (`[[ … ]]`, `$(< file)`).
    shell: 'bash',
    environment: {
      variables: () => ({}),
      workingDirectoryVariable: 'CLAUDE_PROJECT_DIR',
    },
  },
  readAnswer: readClaudeAnswer,
  writeAnswer: writeClaudeAnswer,
  // `hookline bridge claude` and `hookline install claude`.
  agent: claudeAgent,
  contextJson: claudeInput,
  // Claude Code's settings files, user then project then local, as it layers them.
  configFiles: [
    { under: 'home', path: '.claude/settings.json' },
    { under: 'project', path: '.claude/settings.json' },
    { under: 'project', path: '.claude/settings.local.json' },
  ],
  recognises: (source) =>
    source.format === 'json' && source.data['preset'] === undefined && isObject(source.data['hooks']),
  // Claude Code runs hooks as the user's own processes, with the full environment; its reference
  // gives command hooks 10 minutes, prompt hooks 30 s and agent hooks 60 s.
  hookDefaults: { sandbox: false, timeoutMs: { command: 600_000, http: 600_000, prompt: 30_000, agent: 60_000 } },
  // A cloned repository's settings sit next to the user's guards: one bad entry must not switch them off.
  invalidHooks: 'fail-when-selected',
  // Claude Code merges the hooks of all its settings files: a project file adds, never removes.
  layering: 'merge-all',
  starter: { text: claudeStarter, tryEmit: 'PreToolUse --set tool_name=Bash --set \'tool_input={"command":"ls"}\'' },
});

// The host's input as it gave it: Hookline's own `event` field left out, `hook_event_name` filled in
// when the host (or a hand-written --context) lacks it.
function claudeInput(context: EventContext): string {
  const { event, ...input } = context;
  return JSON.stringify(input['hook_event_name'] === undefined ? { hook_event_name: event, ...input } : input);
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
