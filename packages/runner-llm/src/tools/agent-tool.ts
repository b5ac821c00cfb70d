import type Anthropic from '@anthropic-ai/sdk';
import type { RunCall, SandboxSession } from '@hookline/core/plugin';
import type { FileAccess } from './file-access.ts';

/** A tool's answer to the model; `isError` marks it as a failed call (`is_error` in the tool_result). */
export interface ToolOutput {
  readonly text: string;
  readonly isError?: boolean;
}

/** What a tool call may use: the confined file access, the hook's call, and the shell's session. */
export interface ToolScope {
  /** The file tools' side (the host, or the hook's sandbox), confined to the working directory. */
  readonly files: FileAccess;
  readonly call: RunCall;
  /** Largest tool result sent back to the model, in bytes (UTF-8). */
  readonly outputBytes: number;
  /** The session shell commands run in: the hook's sandbox, else a host session made on first use. */
  shellSession(): SandboxSession;
}

/** One tool the agent may call: its declaration for the API and its implementation. */
export interface AgentTool {
  readonly definition: Anthropic.Tool;
  run(input: unknown, scope: ToolScope): Promise<ToolOutput>;
}
