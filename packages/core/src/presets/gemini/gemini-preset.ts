import type { DecisionKind, OutcomeExtra } from '../../decisions/decision.ts';
import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import type { EventContext } from '../../context/event-context.ts';
import { definePreset } from '../define-preset.ts';
import { geminiAgent } from './gemini-agent.ts';
import { readJsonHookExit } from '../json-hook-exit.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { readGeminiAnswer } from './gemini-answer.ts';
import { geminiDialect } from './gemini-dialect.ts';
import { writeGeminiAnswer } from './gemini-wire-answer.ts';

const TOOL = ['tool_name'];

interface GeminiEvent {
  readonly honours: readonly DecisionKind[];
  readonly extras?: readonly OutcomeExtra[];
  readonly matcherFields: readonly string[];
  readonly endsSession?: boolean;
  readonly description: string;
}

// Gemini CLI's hook events (its hooks reference, `@google/gemini-cli` 0.61) and what each honours.
const CATALOG: Readonly<Record<string, GeminiEvent>> = {
  BeforeTool: {
    honours: ['allow', 'block'],
    extras: ['updated_input', 'continue'],
    matcherFields: TOOL,
    description:
      "before a tool call; may deny it (the reason reaches the model as the tool's error) or change its input",
  },
  AfterTool: {
    honours: ['block'],
    extras: ['additional_context', 'continue'],
    matcherFields: TOOL,
    description: "after a tool call; block replaces the tool's output with the reason, context is appended to it",
  },
  BeforeAgent: {
    honours: ['block'],
    extras: ['additional_context', 'continue'],
    matcherFields: [],
    description: 'the user submitted a prompt, before the agent plans; block discards the prompt',
  },
  AfterAgent: {
    honours: ['block'],
    extras: ['continue'],
    matcherFields: [],
    description: 'the agent answered; block rejects the answer and retries with the reason',
  },
  BeforeModel: { honours: ['block'], extras: ['continue'], matcherFields: [], description: 'before a model request' },
  AfterModel: {
    honours: ['block'],
    extras: ['continue'],
    matcherFields: [],
    description: 'after a model response chunk',
  },
  BeforeToolSelection: { honours: [], matcherFields: [], description: 'before the model chooses tools' },
  SessionStart: {
    honours: [],
    extras: ['additional_context'],
    matcherFields: ['source'],
    description: 'a session starts (startup, resume, clear)',
  },
  SessionEnd: { honours: [], matcherFields: ['reason'], endsSession: true, description: 'the session ends' },
  Notification: { honours: [], matcherFields: ['notification_type'], description: 'Gemini CLI shows a notification' },
  PreCompress: { honours: [], matcherFields: ['trigger'], description: 'before the history is compressed' },
};

const events: readonly EventSpec[] = Object.entries(CATALOG).map(([name, event]) => ({
  name,
  blocking: true,
  honours: event.honours,
  description: event.description,
  extras: ['system_message', ...(event.extras ?? [])],
  matcherFields: event.matcherFields,
  // Gemini CLI: a hook that fails (exit 1, a timeout, exit 2 with no reason) lets the action through.
  onError: 'proceed',
  parallel: true,
  ...(event.endsSession === true ? { endsSession: true } : {}),
}));

// The fields Gemini CLI sends on stdin (measured): the common ones, then those of single events.
const context: ContextSchema = {
  session_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  ...fieldsOf('string', 'transcript_path', 'cwd', 'hook_event_name', 'timestamp', 'tool_name'),
  ...fieldsOf('object', 'tool_input', 'tool_response', 'mcp_context', 'llm_request', 'llm_response'),
  ...fieldsOf('string', 'original_request_name', 'prompt', 'prompt_response', 'source', 'reason', 'trigger'),
  ...fieldsOf('string', 'notification_type', 'message'),
  stop_hook_active: { type: 'boolean' },
};

/**
 * Gemini CLI's hooks (`@google/gemini-cli`): the `hooks` object of `.gemini/settings.json` in the
 * project and in the user's home, matcher groups of command hooks with timeouts in milliseconds; the
 * payload on stdin as Gemini CLI sends it; exit 0 with Gemini CLI's JSON answer, exit 2 with stderr as
 * the reason (exit 2 without one is a failure: Gemini CLI runs the tool). Failures let the action
 * through, as in Gemini CLI; `"on_error": "block"` makes a hook fail closed.
 */
export const geminiPreset: Preset = definePreset({
  name: 'gemini',
  events,
  context,
  matcherFields: TOOL,
  matcherLookaround: true,
  eventField: 'hook_event_name',
  sessionField: 'session_id',
  dialect: geminiDialect,
  command: {
    readExit: (exit, scope) => readJsonHookExit(exit, scope, { host: 'Gemini CLI', exitTwoNeedsReason: true }),
    shell: 'bash',
    environment: { variables: () => ({}), workingDirectoryVariable: 'GEMINI_PROJECT_DIR' },
  },
  readAnswer: readGeminiAnswer,
  writeAnswer: writeGeminiAnswer,
  contextJson: geminiInput,
  configFiles: [
    { under: 'home', path: '.gemini/settings.json' },
    { under: 'project', path: '.gemini/settings.json' },
  ],
  recognises: (source) => source.format === 'json' && /(^|[\\/])\.gemini[\\/]settings\.json$/.test(source.file),
  // Gemini CLI's reference: 60 s unless a hook says otherwise.
  hookDefaults: { sandbox: false, timeoutMs: { command: 60_000 } },
  invalidHooks: 'fail-when-selected',
  agent: geminiAgent,
  layering: 'merge-all',
});

function geminiInput(context: EventContext): string {
  const { event, ...input } = context;
  return JSON.stringify(input['hook_event_name'] === undefined ? { hook_event_name: event, ...input } : input);
}
