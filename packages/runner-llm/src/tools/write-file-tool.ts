import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';
import { confinePath, isInside } from './confine-path.ts';
import { openRegularFile } from './open-regular-file.ts';

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
    const target = await confinePath(scope.root, parsed.output.path, true);
    if (!target.ok) return { text: target.error, isError: true };
    try {
      await mkdir(dirname(target.path), { recursive: true });
      // Re-checked after mkdir: the directory the file lands in must still be inside.
      if (!isInside(scope.root, await realpath(dirname(target.path)))) {
        return { text: `refused: ${JSON.stringify(parsed.output.path)} is outside the working directory ${scope.root}`, isError: true };
      }
      const opened = await openRegularFile(target.path, target.shown, 'write');
      if (!opened.ok) return { text: opened.error, isError: true };
      const { file } = opened;
      try {
        await file.writeFile(parsed.output.content, 'utf8');
      } finally {
        await file.close();
      }
    } catch (error) {
      return { text: `cannot write ${JSON.stringify(target.shown)}: ${error instanceof Error ? error.message : String(error)}`, isError: true };
    }
    return { text: `wrote ${Buffer.byteLength(parsed.output.content, 'utf8')} bytes to ${target.shown}` };
  },
};
