import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';
import { defineAgentTool, toolDefinition } from './define-agent-tool.ts';

/** `write_file`: creates or replaces a file inside the working directory (missing parent directories are made). */
export const writeFileTool: AgentTool = defineAgentTool({
  definition: toolDefinition(
    'write_file',
    'Create or overwrite a text file inside the working directory with the given content.',
    {
      path: { type: 'string', description: 'The file path, relative to the working directory.' },
      content: { type: 'string', description: 'The whole new content of the file.' },
    },
    ['path', 'content'],
  ),
  input: v.object({ path: v.string(), content: v.string() }),
  usage: 'write_file needs {"path": "<file path>", "content": "<text>"}',
  async run({ path, content }, scope) {
    const written = await scope.files.write(path, content);
    if (!written.ok) return { text: written.error, isError: true };
    return { text: `wrote ${Buffer.byteLength(content, 'utf8')} bytes to ${written.shown}` };
  },
});
