import { isAbsolute } from 'node:path';
import * as v from 'valibot';
import type { AgentTool } from './agent-tool.ts';
import { defineAgentTool } from './define-agent-tool.ts';
import { limitText } from './limit-text.ts';
import { SEARCH_LIMITS } from './search-job.ts';
import { SKIPPED_DIRECTORIES } from './walk-files.ts';

/**
 * `glob`: the files inside the working directory whose relative path matches a glob (`**`, `*`,
 * `?`, `{a,b}`, `[…]`, as Node's `path.matchesGlob`). Patterns that are absolute or climb out with
 * `..` are refused: they could only name files outside. The listing runs in a worker thread (see
 * `runSearch`).
 */
export const globTool: AgentTool = defineAgentTool({
  name: 'glob',
  description: `List files inside the working directory whose path (relative to it) matches a glob pattern such as "**/*.md" or "src/*.{ts,js}". Returns up to ${SEARCH_LIMITS.globPaths} paths. Skips ${[...SKIPPED_DIRECTORIES].join(' and ')}.`,
  input: v.object({
    pattern: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(SEARCH_LIMITS.maxPatternCharacters),
      v.description('The glob pattern, relative to the working directory.'),
    ),
  }),
  usage: `glob needs {"pattern": "<glob of 1 to ${SEARCH_LIMITS.maxPatternCharacters} characters>"}`,
  async run({ pattern }, scope) {
    if (isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
      return {
        text: `refused: the pattern ${JSON.stringify(pattern)} reaches outside the working directory ${scope.files.root}; use a pattern relative to it, without ".."`,
        isError: true,
      };
    }
    const search = await scope.files.search({ kind: 'glob', pattern }, scope.call.signal);
    if (!search.ok) return { text: search.error, isError: true };
    const { result } = search;
    const notes = [
      result.moreLines ? `[more than ${SEARCH_LIMITS.globPaths} paths; narrow the pattern]` : undefined,
      result.stoppedEarly ? `[listing stopped after ${SEARCH_LIMITS.maxEntries} entries]` : undefined,
      result.stoppedAtBytes === undefined
        ? undefined
        : `[listing stopped after ${result.stoppedAtBytes} bytes of names]`,
    ].filter((note) => note !== undefined);
    const body = result.lines.length === 0 ? 'no files match' : result.lines.join('\n');
    return { text: limitText([body, ...notes].join('\n'), scope.outputBytes).text };
  },
});
