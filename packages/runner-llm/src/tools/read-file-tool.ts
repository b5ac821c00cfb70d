import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';
import { confinePath } from './confine-path.ts';

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
    // O_NOFOLLOW: the path is already resolved, so a link appearing now is not followed out.
    const file = await open(target.path, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: unknown) => error as Error);
    if (file instanceof Error) return { text: `cannot open ${JSON.stringify(target.shown)}: ${file.message}`, isError: true };
    try {
      const stats = await file.stat();
      if (!stats.isFile()) return { text: `${JSON.stringify(target.shown)} is not a regular file${stats.isDirectory() ? ' (it is a directory: use glob to list it)' : ''}`, isError: true };
      const buffer = Buffer.alloc(Math.min(stats.size, scope.outputBytes));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      const text = new TextDecoder().decode(buffer.subarray(0, bytesRead));
      return { text: stats.size > bytesRead ? `${text}\n[file cut at ${bytesRead} of ${stats.size} bytes]` : text };
    } finally {
      await file.close();
    }
  },
};
