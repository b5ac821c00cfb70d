import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';
import { confinePath } from './confine-path.ts';
import { openRegularFile } from './open-regular-file.ts';

const inputSchema = v.object({ path: v.string() });

/** `read_file`: a text file inside the working directory, up to the tool output limit. */
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
    const target = await confinePath(scope.root, parsed.output.path);
    if (!target.ok) return { text: target.error, isError: true };
    const opened = await openRegularFile(target.path, target.shown, 'read');
    if (!opened.ok) return { text: opened.error, isError: true };
    const { file, stats } = opened;
    try {
      const buffer = Buffer.alloc(Math.min(stats.size, scope.outputBytes));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      const text = new TextDecoder().decode(buffer.subarray(0, bytesRead));
      return { text: stats.size > bytesRead ? `${text}\n[file cut at ${bytesRead} of ${stats.size} bytes]` : text };
    } finally {
      await file.close();
    }
  },
};
