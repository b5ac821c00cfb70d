/**
 * The canonical tool names of the `agent` preset: what `tool_name` holds when a coding agent's call
 * comes through `hookline bridge <agent>`, whatever the agent calls the tool. A guard written for
 * `shell` fires for Claude Code's `Bash`, Gemini CLI's `run_shell_command` and Codex's shell tool
 * alike. The agent's own name stays in `agent_tool_name`, and `tool_input` keeps the agent's fields,
 * with the canonical ones below added where the agent names them differently.
 */
export const CANONICAL_TOOLS = {
  shell: { does: 'runs a shell command', input: ['command'] },
  file_read: { does: 'reads a file', input: ['file_path'] },
  file_write: { does: 'creates or overwrites a file', input: ['file_path', 'content'] },
  file_edit: { does: 'changes part of a file', input: ['file_path'] },
  file_search: { does: 'finds files by name pattern', input: ['pattern'] },
  content_search: { does: 'searches file contents', input: ['pattern'] },
  web_fetch: { does: 'fetches a URL', input: ['url'] },
  web_search: { does: 'searches the web', input: ['query'] },
  mcp: { does: "calls an MCP server's tool (`mcp_server`, `mcp_tool` in the context)", input: [] },
  subagent: { does: 'starts a subagent', input: ['prompt'] },
  todo: { does: "updates the agent's task list", input: [] },
} as const satisfies Readonly<Record<string, { readonly does: string; readonly input: readonly string[] }>>;

/** A canonical tool name. A tool the table does not know keeps the agent's own name. */
export type CanonicalTool = keyof typeof CANONICAL_TOOLS;
