import type { RunCall, RunResult } from '@hookline/core/plugin';
import { DECISION_TOOL, DECISION_TOOL_NAME, hookUserMessage, PROMPT_SYSTEM } from './hook-instructions.ts';
import type { PromptHookOptions } from './llm-keys.ts';
import { isRunResult, startLlmRun, type LlmRunScope } from './llm-run.ts';
import { excerpt } from './model-reply.ts';
import { readAnswer } from './read-answer.ts';

/** Room for a decision and a sentence or two of reason; the answer is a small tool call. */
export const PROMPT_MAX_TOKENS = 1_024;

/**
 * A prompt hook: one model call whose answer is forced to be a `hook_decision` tool call
 * with `{ ok, reason? }`. A reply without that call — prose, a refusal — is an unparseable answer.
 */
export async function runPromptHook(options: PromptHookOptions, call: RunCall, scope: LlmRunScope): Promise<RunResult> {
  const run = await startLlmRun(options, call, scope);
  if (isRunResult(run)) return run;
  const outcome = await run.ask({
    max_tokens: PROMPT_MAX_TOKENS,
    system: PROMPT_SYSTEM,
    messages: [{ role: 'user', content: hookUserMessage(options.prompt, call.contextJson) }],
    tools: [DECISION_TOOL],
    tool_choice: { type: 'tool', name: DECISION_TOOL_NAME },
  });
  if (!outcome.ok) return run.failed(outcome.error);
  const { reply } = outcome;
  const decisionCall = reply.toolCalls.find((toolCall) => toolCall.name === DECISION_TOOL_NAME);
  if (decisionCall === undefined) {
    const wrote = reply.text.trim() === '' ? '' : `; it wrote ${excerpt(reply.text)}`;
    return run.failed(
      `unparseable answer: the model did not call ${DECISION_TOOL_NAME} (stop_reason ${String(reply.stopReason)})${wrote}`,
    );
  }
  const answer = readAnswer(decisionCall.input);
  return answer.ok ? run.answered(answer.decision) : run.failed(answer.error);
}
