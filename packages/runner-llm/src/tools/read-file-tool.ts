import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';

const inputSchema = v.object({ path: v.string() });

/** `read_file`: a regular text file inside the working directory, up to the tool output limit. */
export const readFileTool: AgentTool = {
  definition: {
    name: 'read_file',
    description: 'Read a text file inside the working directory. Large files are cut at a size limit.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'The file path, relative to the working directory.' } },
      required: ['path'],
    },
  },
  async run(input, scope) {
    const parsed = v.safeParse(inputSchema, input);
    if (!parsed.success) return { text: 'read_file needs {"path": "<file path>"}', isError: true };
    const read = await scope.files.read(parsed.output.path, scope.outputBytes);
    if (!read.ok) return { text: read.error, isError: true };
    return { text: read.size > read.bytesRead ? `${read.text}\n[file cut at ${read.bytesRead} of ${read.size} bytes]` : read.text };
  },
};
