import type Anthropic from '@anthropic-ai/sdk';
import { ANSWER_SCHEMA } from './read-answer.ts';
import { toolDefinition } from './tools/define-agent-tool.ts';

/** The tool a prompt hook's model must call (forced through `tool_choice`) to answer. */
export const DECISION_TOOL_NAME = 'hook_decision';

/** Where a prompt wants the event context JSON, as Claude Code's prompt hooks write it. */
export const ARGUMENTS = '$ARGUMENTS';

/** The model is a hook evaluator for a workflow engine. */
export const PROMPT_SYSTEM = [
  'You are a hook evaluator for a workflow engine.',
  'The engine has reached a lifecycle event and asks you whether it should go on.',
  "The user message holds the hook's prompt (the policy to apply) and the event's context as JSON.",
  'Apply the prompt to the context, then answer by calling the hook_decision tool exactly once:',
  'ok: true lets the event proceed; ok: false blocks it, with a reason of one or two sentences that a person can act on.',
].join(' ');

/** The agent's instructions: the same role, its tools, its limits, and the answer format it must end with. */
export function agentSystem(workingDirectory: string, maxToolRounds: number): string {
  return [
    'You are a hook evaluator for a workflow engine.',
    'The engine has reached a lifecycle event and asks you whether it should go on.',
    "The user message holds the hook's prompt (the policy to apply) and the event's context as JSON.",
    `You may inspect the working directory ${workingDirectory} with the tools shell, read_file, write_file, grep and glob;`,
    'the file tools only reach files inside that directory, and paths are relative to it.',
    `You have at most ${maxToolRounds} rounds of tool calls.`,
    'When you have decided, reply without calling any tool, with only a JSON object and nothing else:',
    '{"ok": true} to let the event proceed, or {"ok": false, "reason": "…"} to block it, with a reason of one or two sentences that a person can act on.',
  ].join(' ');
}

/**
 * `Hook prompt: {prompt}` followed by the event context JSON. A prompt that says where the
 * context goes with `$ARGUMENTS` (Claude Code's placeholder for the hook input) gets it there instead.
 */
export function hookUserMessage(prompt: string, contextJson: string): string {
  if (prompt.includes(ARGUMENTS)) return `Hook prompt: ${prompt.replaceAll(ARGUMENTS, contextJson)}`;
  return `Hook prompt: ${prompt}\n\nEvent context (JSON):\n${contextJson}`;
}

/** The structured answer of a prompt hook: `{ ok, reason? }` as a tool's input. */
export const DECISION_TOOL: Anthropic.Tool = toolDefinition(
  DECISION_TOOL_NAME,
  'Report whether the workflow event may proceed (ok: true) or must be blocked (ok: false, with a reason).',
  ANSWER_SCHEMA,
);
