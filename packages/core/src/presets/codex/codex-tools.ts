import type { CanonicalTool } from '../agent/canonical-tools.ts';
import type { CanonicalToolCall } from '../canonical-call.ts';

/**
 * Codex's tools as its hooks see them and their canonical names: the shell tool (`exec_command` to
 * the model) reaches hooks as `Bash` with `tool_input.command` (measured, `@openai/codex` 0.171);
 * `apply_patch` edits files.
 */
const CODEX_TOOLS: Readonly<Record<string, CanonicalTool>> = {
  Bash: 'shell',
  apply_patch: 'file_edit',
  web_search: 'web_search',
  update_plan: 'todo',
};

// Codex names an MCP server's tool as Claude Code does: mcp__<server>__<tool>.
const MCP_TOOL = /^mcp__(.+?)__(.+)$/;

/** A Codex tool call in canonical terms. */
export function canonicalCodexTool(name: string, input: Readonly<Record<string, unknown>>): CanonicalToolCall {
  const mcp = MCP_TOOL.exec(name);
  if (mcp !== null) return { toolName: 'mcp', input, fields: { mcp_server: mcp[1], mcp_tool: mcp[2] } };
  return { toolName: Object.hasOwn(CODEX_TOOLS, name) ? CODEX_TOOLS[name]! : name, input };
}
