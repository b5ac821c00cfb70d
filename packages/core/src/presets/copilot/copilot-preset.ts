import type { DecisionKind, OutcomeExtra } from '../../decisions/decision.ts';
import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import type { EventContext } from '../../context/event-context.ts';
import { definePreset } from '../define-preset.ts';
import { readJsonHookExit } from '../json-hook-exit.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { copilotAgent } from './copilot-agent.ts';
import { readCopilotAnswer } from './copilot-answer.ts';
import { copilotDialect } from './copilot-dialect.ts';
import { writeCopilotAnswer } from './copilot-wire-answer.ts';

const TOOL = ['toolName'];

interface CopilotEvent {
  readonly honours: readonly DecisionKind[];
  readonly extras?: readonly OutcomeExtra[];
  readonly matcherFields: readonly string[];
  readonly endsSession?: boolean;
  readonly failClosed?: boolean;
  readonly description: string;
}

// Copilot's file-configurable hook events (`HookType` of its API schema, `@github/copilot` 1.0.102)
// and what each honours as measured: preToolUse takes deny, ask, allow and modifiedArgs.
const CATALOG: Readonly<Record<string, CopilotEvent>> = {
  preToolUse: {
    honours: ['allow', 'ask', 'block'],
    extras: ['updated_input', 'additional_context'],
    matcherFields: TOOL,
    failClosed: true,
    description: 'before a tool call (the shell tool as `bash`); may allow, ask, deny it or change its arguments',
  },
  postToolUse: {
    honours: [],
    extras: ['additional_context'],
    matcherFields: TOOL,
    description: 'after a tool call succeeded',
  },
  postToolUseFailure: {
    honours: [],
    extras: ['additional_context'],
    matcherFields: TOOL,
    description: 'after a tool call failed',
  },
  userPromptSubmitted: {
    honours: ['block'],
    extras: ['additional_context'],
    matcherFields: [],
    description: 'the user submitted a prompt; block refuses it',
  },
  sessionStart: { honours: [], extras: ['additional_context'], matcherFields: [], description: 'a session starts' },
  sessionEnd: {
    honours: [],
    matcherFields: [],
    endsSession: true,
    description: 'a session (or a prompt-mode turn) ends',
  },
  agentStop: {
    honours: ['block'],
    matcherFields: [],
    description: 'the agent is about to stop; block continues it with the reason',
  },
  subagentStart: { honours: [], extras: ['additional_context'], matcherFields: [], description: 'a subagent starts' },
  subagentStop: { honours: ['block'], matcherFields: [], description: 'a subagent is about to stop' },
  preCompact: { honours: [], matcherFields: [], description: 'before the context is compacted' },
  errorOccurred: { honours: [], matcherFields: [], description: 'the agent met an error' },
  permissionRequest: {
    honours: [],
    matcherFields: TOOL,
    description: 'Copilot is about to ask for a permission (observed only: its answer form is not carried)',
  },
  notification: { honours: [], matcherFields: [], description: 'the agent emits a notification' },
};

const events: readonly EventSpec[] = Object.entries(CATALOG).map(([name, event]) => ({
  name,
  blocking: true,
  honours: event.honours,
  description: event.description,
  extras: ['system_message', ...(event.extras ?? [])],
  matcherFields: event.matcherFields,
  // Copilot denies a tool whose preToolUse hook errors (measured); other failures let it go on.
  onError: event.failClosed === true ? 'block' : 'proceed',
  parallel: true,
  ...(event.endsSession === true ? { endsSession: true } : {}),
}));

// The fields Copilot sends on stdin (measured): the common ones, then those of single events.
const context: ContextSchema = {
  sessionId: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  timestamp: { type: 'number' },
  ...fieldsOf('string', 'cwd', 'toolName', 'prompt', 'source', 'initialPrompt', 'reason', 'hookName'),
  ...fieldsOf('string', 'transcriptPath', 'stopReason', 'error'),
  ...fieldsOf('object', 'toolArgs', 'toolResult', 'toolInput'),
  stop_hook_active: { type: 'boolean' },
  permissionSuggestions: { type: 'array' },
};

/**
 * GitHub Copilot CLI's hooks (`@github/copilot`): every `*.json` in `.github/hooks/` of the project and
 * in `~/.copilot/hooks/`, `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "…",
 * "timeoutSec": 30}]}}`; the payload on stdin as Copilot sends it (without its event's name); exit 0
 * with Copilot's JSON answer (`permissionDecision`, `decision: "block"`, …), exit 2 denies. As in
 * Copilot, a preToolUse hook that fails denies the call; other failures let the action go on.
 */
export const copilotPreset: Preset = definePreset({
  name: 'copilot',
  events,
  context,
  matcherFields: TOOL,
  matcherLookaround: true,
  sessionField: 'sessionId',
  dialect: copilotDialect,
  command: {
    readExit: (exit, scope) => readJsonHookExit(exit, scope, { host: 'GitHub Copilot CLI', exitTwoNeedsReason: false }),
    shell: 'bash',
    environment: { variables: () => ({}) },
  },
  readAnswer: readCopilotAnswer,
  writeAnswer: writeCopilotAnswer,
  contextJson: copilotInput,
  configFiles: [
    { under: 'home', path: '.copilot/hooks/hooks.json' },
    { under: 'project', path: '.github/hooks/hooks.json' },
  ],
  recognises: (source) =>
    source.format === 'json' && /(^|[\\/])(\.github|\.copilot)[\\/]hooks[\\/][^\\/]+\.json$/.test(source.file),
  hookDefaults: { sandbox: false, timeoutMs: { command: 30_000 } },
  invalidHooks: 'fail-when-selected',
  agent: copilotAgent,
  layering: 'merge-all',
});

// Copilot's hooks get its payload as it was: no event field (it never sends one).
function copilotInput(context: EventContext): string {
  const { event: _event, ...input } = context;
  return JSON.stringify(input);
}
