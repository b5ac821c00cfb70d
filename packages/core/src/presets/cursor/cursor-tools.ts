import type { CanonicalTool } from '../agent/canonical-tools.ts';
import type { CanonicalToolCall } from '../canonical-call.ts';

/** Cursor's tool names in its generic preToolUse/postToolUse payloads (its hooks reference) and their canonical names. */
const CURSOR_TOOLS: Readonly<Record<string, CanonicalTool>> = {
  Shell: 'shell',
  Read: 'file_read',
  Write: 'file_write',
  Edit: 'file_edit',
  StrReplace: 'file_edit',
  Delete: 'file_write',
  Grep: 'content_search',
  Glob: 'file_search',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  Task: 'subagent',
  TodoWrite: 'todo',
};

/** A Cursor tool call in canonical terms. */
export function canonicalCursorTool(name: string, input: Readonly<Record<string, unknown>>): CanonicalToolCall {
  if (name.startsWith('MCP:')) return { toolName: 'mcp', input, fields: { mcp_tool: name.slice(4) } };
  return { toolName: Object.hasOwn(CURSOR_TOOLS, name) ? CURSOR_TOOLS[name]! : name, input };
}
