import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';
import { defineAgentTool } from './define-agent-tool.ts';

/** `write_file`: creates or replaces a file inside the working directory (missing parent directories are made). */
export const writeFileTool: AgentTool = defineAgentTool({
  name: 'write_file',
  description: 'Create or overwrite a text file inside the working directory with the given content.',
  input: v.object({
    path: v.pipe(v.string(), v.description('The file path, relative to the working directory.')),
    content: v.pipe(v.string(), v.description('The whole new content of the file.')),
  }),
  usage: 'write_file needs {"path": "<file path>", "content": "<text>"}',
  async run({ path, content }, scope) {
    const written = await scope.files.write(path, content);
    if (!written.ok) return { text: written.error, isError: true };
    return { text: `wrote ${Buffer.byteLength(content, 'utf8')} bytes to ${written.shown}` };
  },
});
