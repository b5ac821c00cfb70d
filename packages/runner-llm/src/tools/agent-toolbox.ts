import type Anthropic from '@anthropic-ai/sdk';
import type { RunCall, SandboxSession } from '@hookline/core/plugin';
import { createHostSession } from '@hookline/runner-command';
import { messageOf } from '@hookline/core/plugin';
import type { ToolCall } from '../model-reply.ts';
import type { AgentTool, ToolScope } from './agent-tool.ts';
import type { FileAccess } from './file-access.ts';
import { globTool } from './glob-tool.ts';
import { grepTool } from './grep-tool.ts';
import { readFileTool } from './read-file-tool.ts';
import { shellTool } from './shell-tool.ts';
import { writeFileTool } from './write-file-tool.ts';

/** The agent's tools, in the order they are declared to the model. */
export const AGENT_TOOLS: readonly AgentTool[] = [shellTool, readFileTool, writeFileTool, grepTool, globTool];

/** The tools of one agent run: their declarations, a dispatcher, and cleanup. */
export interface AgentToolbox {
  readonly definitions: readonly Anthropic.Tool[];
  /** Runs one tool call; every failure, refusal included, is an `is_error` result for the model, never a throw. */
  run(toolCall: ToolCall): Promise<Anthropic.ToolResultBlockParam>;
  /** Ends the host session the shell tool may have opened. */
  close(): Promise<void>;
}

/**
 * Makes the tools for one run. The shell goes through `call.sandbox` when the engine handed one (the
 * hook is sandboxed), else through a host session from `@hookline/runner-command`, opened on the
 * first shell call and disposed with the run, so it never outlives the hook. The file tools act
 * through `files`, which the caller chose the same way.
 */
export function agentToolbox(files: FileAccess, call: RunCall, outputBytes: number): AgentToolbox {
  let host: SandboxSession | undefined;
  const scope: ToolScope = {
    files,
    call,
    outputBytes,
    shellSession() {
      if (call.sandbox !== undefined) return call.sandbox;
      host ??= createHostSession({ maxOutputBytes: outputBytes });
      return host;
    },
  };
  const byName = new Map(AGENT_TOOLS.map((tool) => [tool.definition.name, tool]));
  return {
    definitions: AGENT_TOOLS.map((tool) => tool.definition),
    async run(toolCall) {
      const tool = byName.get(toolCall.name);
      let output;
      try {
        output =
          tool === undefined
            ? {
                text: `unknown tool ${JSON.stringify(toolCall.name)}; the tools are ${[...byName.keys()].join(', ')}`,
                isError: true,
              }
            : await tool.run(toolCall.input, scope);
      } catch (error) {
        output = { text: `${toolCall.name} failed: ${messageOf(error)}`, isError: true };
      }
      return {
        type: 'tool_result',
        tool_use_id: toolCall.id,
        content: output.text,
        ...(output.isError === true ? { is_error: true } : {}),
      };
    },
    async close() {
      await host?.dispose();
    },
  };
}
