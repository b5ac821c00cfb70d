import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';

const inputSchema = v.object({ path: v.string(), content: v.string() });

/** `write_file`: creates or replaces a file inside the working directory (missing parent directories are made). */
export const writeFileTool: AgentTool = {
  definition: {
    name: 'write_file',
    description: 'Create or overwrite a text file inside the working directory with the given content.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The file path, relative to the working directory.' },
        content: { type: 'string', description: 'The whole new content of the file.' },
      },
      required: ['path', 'content'],
    },
  },
  async run(input, scope) {
    const parsed = v.safeParse(inputSchema, input);
    if (!parsed.success) return { text: 'write_file needs {"path": "<file path>", "content": "<text>"}', isError: true };
    const written = await scope.files.write(parsed.output.path, parsed.output.content);
    if (!written.ok) return { text: written.error, isError: true };
    return { text: `wrote ${Buffer.byteLength(parsed.output.content, 'utf8')} bytes to ${written.shown}` };
  },
};
