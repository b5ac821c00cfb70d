import type { CanonicalTool } from '../agent/canonical-tools.ts';
import type { CanonicalToolCall } from '../canonical-call.ts';

/**
 * Gemini CLI's tools and their canonical names (its tool constants and tools reference,
 * `@google/gemini-cli` 0.61). Their inputs use the canonical field names (`command`, `file_path`,
 * `content`, `pattern`, `query`, `prompt`) already.
 */
const GEMINI_TOOLS: Readonly<Record<string, CanonicalTool>> = {
  run_shell_command: 'shell',
  read_file: 'file_read',
  read_many_files: 'file_read',
  write_file: 'file_write',
  replace: 'file_edit',
  glob: 'file_search',
  grep_search: 'content_search',
  search_file_content: 'content_search',
  web_fetch: 'web_fetch',
  google_web_search: 'web_search',
  invoke_agent: 'subagent',
  write_todos: 'todo',
};

// Gemini CLI names an MCP server's tool mcp_<server>_<tool>; `mcp_context` names the server exactly.
const MCP_TOOL = /^mcp_([^_]+)_(.+)$/;

/** A Gemini CLI tool call in canonical terms. */
export function canonicalGeminiTool(
  name: string,
  input: Readonly<Record<string, unknown>>,
  mcpContext?: Readonly<Record<string, unknown>>,
): CanonicalToolCall {
  const server = mcpContext?.['server_name'];
  if (typeof server === 'string' && name.startsWith(`mcp_${server}_`))
    return { toolName: 'mcp', input, fields: { mcp_server: server, mcp_tool: name.slice(server.length + 5) } };
  const mcp = MCP_TOOL.exec(name);
  if (mcp !== null) return { toolName: 'mcp', input, fields: { mcp_server: mcp[1], mcp_tool: mcp[2] } };
  return { toolName: Object.hasOwn(GEMINI_TOOLS, name) ? GEMINI_TOOLS[name]! : name, input };
}
