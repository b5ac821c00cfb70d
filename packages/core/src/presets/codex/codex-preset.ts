import type { DecisionKind, OutcomeExtra } from '../../decisions/decision.ts';
import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import type { EventContext } from '../../context/event-context.ts';
import { claudeDialect } from '../claude/claude-dialect.ts';
import { definePreset } from '../define-preset.ts';
import { codexAgent } from './codex-agent.ts';
import { readJsonHookExit } from '../json-hook-exit.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { readCodexAnswer } from './codex-answer.ts';
import { writeCodexAnswer } from './codex-wire-answer.ts';

const TOOL = ['tool_name'];

interface CodexEvent {
  readonly honours: readonly DecisionKind[];
  readonly extras?: readonly OutcomeExtra[];
  readonly matcherFields: readonly string[];
  readonly endsSession?: boolean;
  readonly description: string;
}

// Codex's hook events (the event names its `hooks.json` accepts, `@openai/codex` 0.171) and what each
// honours as measured: PreToolUse takes `deny` and `allow` with `updatedInput`, never `ask`.
const CATALOG: Readonly<Record<string, CodexEvent>> = {
  PreToolUse: {
    honours: ['block'],
    extras: ['updated_input'],
    matcherFields: TOOL,
    description: 'before a tool call runs (the shell tool as `Bash`); may deny it or change its input',
  },
  PermissionRequest: {
    honours: ['allow', 'block'],
    matcherFields: TOOL,
    description: 'Codex is about to ask the user for approval; may allow or deny on their behalf',
  },
  PostToolUse: {
    honours: ['block'],
    extras: ['additional_context'],
    matcherFields: TOOL,
    description: "after a tool call; block replaces the tool's output with the reason",
  },
  UserPromptSubmit: {
    honours: ['block'],
    extras: ['additional_context'],
    matcherFields: [],
    description: 'the user submitted a prompt, before the model sees it',
  },
  Stop: { honours: ['block'], matcherFields: [], description: 'the agent is about to stop; block continues it' },
  SubagentStart: { honours: [], extras: ['additional_context'], matcherFields: [], description: 'a subagent starts' },
  SubagentStop: { honours: ['block'], matcherFields: [], description: 'a subagent is about to stop' },
  SessionStart: {
    honours: [],
    extras: ['additional_context'],
    matcherFields: ['source'],
    description: 'a session starts or resumes',
  },
  PreCompact: { honours: [], matcherFields: [], description: 'before the conversation is compacted' },
  PostCompact: { honours: [], matcherFields: [], description: 'after the conversation was compacted' },
  Interrupt: { honours: [], matcherFields: [], description: 'the user interrupted a turn' },
  SessionEnd: { honours: [], matcherFields: [], endsSession: true, description: 'a session ends' },
};

const events: readonly EventSpec[] = Object.entries(CATALOG).map(([name, event]) => ({
  name,
  blocking: true,
  honours: event.honours,
  description: event.description,
  extras: ['system_message', ...(event.extras ?? [])],
  matcherFields: event.matcherFields,
  // Codex: a hook that fails (exit 1, a timeout, output it cannot read) lets the action through.
  onError: 'proceed',
  parallel: true,
  runIdenticalOnce: true,
  ...(event.endsSession === true ? { endsSession: true } : {}),
}));

// The fields Codex sends on stdin (measured): the common ones, then those of single events.
const context: ContextSchema = {
  session_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  ...fieldsOf('string', 'turn_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'permission_mode'),
  ...fieldsOf('string', 'tool_name', 'tool_use_id', 'prompt', 'source'),
  tool_input: { type: 'object' },
  stop_hook_active: { type: 'boolean' },
};

/**
 * OpenAI Codex's hooks (`@openai/codex`): `.codex/hooks.json` in the project and `hooks.json` in
 * `CODEX_HOME` (`~/.codex`), written in Claude Code's form — `{"hooks": {"PreToolUse": [{"matcher":
 * "Bash", "hooks": [{"type": "command", "command": "…", "timeout": 30}]}]}}`, timeouts in seconds;
 * the payload on stdin as Codex sends it; exit 0 with Codex's JSON answer, exit 2 with stderr as the
 * reason. Failures let the action through, as in Codex; `"on_error": "block"` makes a hook fail closed.
 */
export const codexPreset: Preset = definePreset({
  name: 'codex',
  events,
  context,
  matcherFields: TOOL,
  matcherLookaround: true,
  eventField: 'hook_event_name',
  sessionField: 'session_id',
  dialect: claudeDialect,
  command: {
    readExit: (exit, scope) => readJsonHookExit(exit, scope, { host: 'Codex', exitTwoNeedsReason: true }),
    shell: 'bash',
    environment: { variables: () => ({}) },
  },
  readAnswer: readCodexAnswer,
  writeAnswer: writeCodexAnswer,
  contextJson: codexInput,
  configFiles: [
    { under: 'home', path: '.codex/hooks.json' },
    { under: 'project', path: '.codex/hooks.json' },
  ],
  recognises: (source) => source.format === 'json' && /(^|[\\/])\.codex[\\/]hooks\.json$/.test(source.file),
  hookDefaults: { sandbox: false, timeoutMs: { command: 600_000 } },
  invalidHooks: 'fail-when-selected',
  agent: codexAgent,
  layering: 'merge-all',
});

function codexInput(context: EventContext): string {
  const { event, ...input } = context;
  return JSON.stringify(input['hook_event_name'] === undefined ? { hook_event_name: event, ...input } : input);
}
