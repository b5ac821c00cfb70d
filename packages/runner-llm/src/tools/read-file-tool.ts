import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';
import { defineAgentTool } from './define-agent-tool.ts';

/** `read_file`: a regular text file inside the working directory, up to the tool output limit. */
export const readFileTool: AgentTool = defineAgentTool({
  name: 'read_file',
  description: 'Read a text file inside the working directory. Large files are cut at a size limit.',
  input: v.object({ path: v.pipe(v.string(), v.description('The file path, relative to the working directory.')) }),
  usage: 'read_file needs {"path": "<file path>"}',
  async run({ path }, scope) {
    const read = await scope.files.read(path, scope.outputBytes);
    if (!read.ok) return { text: read.error, isError: true };
    return {
      text:
        read.size > read.bytesRead ? `${read.text}\n[file cut at ${read.bytesRead} of ${read.size} bytes]` : read.text,
    };
  },
});
