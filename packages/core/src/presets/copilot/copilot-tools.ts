import type { CanonicalTool } from '../agent/canonical-tools.ts';
import type { CanonicalToolCall } from '../canonical-call.ts';

/**
 * GitHub Copilot CLI's tools as its hooks see them (`toolName`, `toolArgs`: the model's arguments as
 * they are) and their canonical names — the tool list `@github/copilot` 1.0.102 sends the model. Its
 * file tools name the file `path`, which the canonical input also gets as `file_path` (and `create`'s
 * `file_text` as `content`).
 */
const COPILOT_TOOLS: Readonly<Record<string, CanonicalTool>> = {
  bash: 'shell',
  powershell: 'shell',
  view: 'file_read',
  create: 'file_write',
  edit: 'file_edit',
  glob: 'file_search',
  grep: 'content_search',
  task: 'subagent',
};

/** A Copilot tool call in canonical terms. */
export function canonicalCopilotTool(name: string, input: Readonly<Record<string, unknown>>): CanonicalToolCall {
  const tool = Object.hasOwn(COPILOT_TOOLS, name) ? COPILOT_TOOLS[name]! : undefined;
  if (tool === undefined) return { toolName: name, input };
  const path = input['path'];
  const text = input['file_text'];
  return {
    toolName: tool,
    input: {
      ...input,
      ...(typeof path === 'string' && input['file_path'] === undefined ? { file_path: path } : {}),
      ...(typeof text === 'string' && input['content'] === undefined ? { content: text } : {}),
    },
  };
}
