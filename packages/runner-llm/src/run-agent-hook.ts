import type Anthropic from '@anthropic-ai/sdk';
import type { RunCall, RunResult } from '@hookline/core/plugin';
import { messageOf } from '@hookline/core/plugin';
import { agentSystem, hookUserMessage } from './hook-instructions.ts';
import { DEFAULT_MAX_TOOL_ROUNDS, type AgentHookOptions } from './llm-keys.ts';
import { isRunResult, startLlmRun, type LlmRunScope } from './llm-run.ts';
import { readTextAnswer } from './read-answer.ts';
import { agentToolbox } from './tools/agent-toolbox.ts';
import type { FileAccess } from './tools/file-access.ts';
import { hostFileAccess } from './tools/host-file-access.ts';
import { sandboxFileAccess, sandboxWorkingDirectory } from './tools/sandbox-file-access.ts';
import { contextCwd, workingDirectory } from './working-directory.ts';

/** Room for reasoning between tool calls and for the final JSON answer. */
export const AGENT_MAX_TOKENS = 4_096;

/**
 * An agent hook: the prompt hook's messages plus tools, in a loop. Each reply with tool
 * calls is answered with their results (one tool round); the first reply without tool calls must be
 * the `{ ok, reason? }` JSON (a surrounding code fence is allowed). More than `max_tool_rounds`
 * rounds, an unparseable answer, or a failed request fail the hook.
 */
export async function runAgentHook(options: AgentHookOptions, call: RunCall, scope: LlmRunScope): Promise<RunResult> {
  // Checked before the first request: a hook that cannot run its tools should not spend tokens.
  const files = await fileAccess(call);
  if (!files.ok) return { status: 'failed', error: files.error };
  const run = await startLlmRun(options, call, scope);
  if (isRunResult(run)) return run;
  const maxToolRounds = options.max_tool_rounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const toolbox = agentToolbox(files.access, call, scope.toolOutputBytes);
  const system = agentSystem(files.access.root, maxToolRounds);
  const messages: Anthropic.MessageParam[] = [
    { role: 'user', content: hookUserMessage(options.prompt, call.contextJson) },
  ];
  let toolCalls = 0;
  const extra = (): Record<string, unknown> => ({ tool_calls: toolCalls });
  try {
    for (let toolRounds = 0; ; toolRounds++) {
      const outcome = await run.ask({
        max_tokens: AGENT_MAX_TOKENS,
        system,
        messages,
        tools: [...toolbox.definitions],
      });
      if (!outcome.ok) return run.failed(outcome.error, extra());
      const { reply } = outcome;
      if (reply.toolCalls.length === 0) {
        const answer = readTextAnswer(reply.text);
        if (answer.ok) return run.answered(answer.decision, extra());
        return run.failed(
          reply.stopReason === 'max_tokens' ? `${answer.error} (the reply was cut off at max_tokens)` : answer.error,
          extra(),
        );
      }
      if (toolRounds >= maxToolRounds) {
        return run.failed(
          `rounds exhausted: the agent was still calling tools after ${maxToolRounds} tool rounds (max_tool_rounds = ${maxToolRounds})`,
          extra(),
        );
      }
      // The assistant turn goes back as it came, so the tool_use ids match the results.
      messages.push({ role: 'assistant', content: [...reply.content] });
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const toolCall of reply.toolCalls) {
        if (call.signal.aborted) return run.failed(abortText(call.signal), extra());
        toolCalls++;
        results.push(await toolbox.run(toolCall));
      }
      messages.push({ role: 'user', content: results });
    }
  } finally {
    await toolbox.close();
  }
}

/**
 * Where the file tools act. A sandboxed hook's tools all go through its sandbox session, like its
 * shell: the working directory is the one the sandbox sees for the context's `cwd`, and reads and
 * writes obey the sandbox's mounts. Otherwise, the host's directory.
 */
async function fileAccess(
  call: RunCall,
): Promise<{ readonly ok: true; readonly access: FileAccess } | { readonly ok: false; readonly error: string }> {
  if (call.sandbox === undefined) {
    const directory = await workingDirectory(call.context);
    return directory.ok ? { ok: true, access: hostFileAccess(directory.path) } : directory;
  }
  const directory = contextCwd(call.context);
  if (!directory.ok) return directory;
  const scope = { session: call.sandbox, cwd: directory.cwd, signal: call.signal };
  const root = await sandboxWorkingDirectory(scope);
  return root.ok ? { ok: true, access: sandboxFileAccess(scope, root.path) } : root;
}

function abortText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return messageOf(reason);
}
