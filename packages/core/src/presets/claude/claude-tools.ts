import type { CanonicalTool } from '../agent/canonical-tools.ts';

/**
 * Claude Code's tools and their canonical names (its tools' input types: sdk-tools.d.ts of
 * @anthropic-ai/claude-code). Their inputs already use the canonical field names (`command`,
 * `file_path`, `content`, `pattern`, `url`, `query`, `prompt`), except NotebookEdit's.
 */
const CLAUDE_TOOLS: Readonly<Record<string, CanonicalTool>> = {
  Bash: 'shell',
  Read: 'file_read',
  Write: 'file_write',
  Edit: 'file_edit',
  MultiEdit: 'file_edit',
  NotebookEdit: 'file_edit',
  Glob: 'file_search',
  Grep: 'content_search',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  Task: 'subagent',
  Agent: 'subagent',
  TodoWrite: 'todo',
};

// Claude Code names an MCP server's tool mcp__<server>__<tool>.
const MCP_TOOL = /^mcp__(.+?)__(.+)$/;

/** A Claude Code tool call in canonical terms: the name, and context fields to add. */
export interface CanonicalToolCall {
  readonly toolName: string;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly input: Readonly<Record<string, unknown>>;
}

/** `tool_name` and `tool_input` of a Claude Code call as the canonical tool table has them. */
export function canonicalClaudeTool(name: string, input: Readonly<Record<string, unknown>>): CanonicalToolCall {
  const mcp = MCP_TOOL.exec(name);
  if (mcp !== null) return { toolName: 'mcp', fields: { mcp_server: mcp[1], mcp_tool: mcp[2] }, input };
  const canonical = Object.hasOwn(CLAUDE_TOOLS, name) ? CLAUDE_TOOLS[name] : undefined;
  if (canonical === undefined) return { toolName: name, fields: {}, input };
  // NotebookEdit names its file notebook_path: file guards read file_path for every file tool.
  const notebook = input['notebook_path'];
  return {
    toolName: canonical,
    fields: {},
    input: typeof notebook === 'string' && input['file_path'] === undefined ? { ...input, file_path: notebook } : input,
  };
}
