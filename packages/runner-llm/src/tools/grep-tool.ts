import * as v from 'valibot';
import { messageOf } from '@hookline/core/plugin';
import type { AgentTool } from './agent-tool.ts';
import { defineAgentTool } from './define-agent-tool.ts';
import { limitText } from './limit-text.ts';
import { SEARCH_LIMITS } from './search-job.ts';
import { SKIPPED_DIRECTORIES } from './walk-files.ts';

/**
 * `grep`: lines matching a JavaScript regular expression in the text files under a path inside the
 * working directory, as `path:line: text`. Binary files, files over 1 MiB, and `.git` and
 * `node_modules` directories are skipped. The search runs in a worker thread (see `runSearch`).
 */
export const grepTool: AgentTool = defineAgentTool({
  name: 'grep',
  description: `Search text files inside the working directory for a regular expression (JavaScript syntax). Returns up to ${SEARCH_LIMITS.grepMatches} matching lines as path:line: text. Skips binary files, files over 1 MiB, ${[...SKIPPED_DIRECTORIES].join(' and ')}.`,
  input: v.object({
    pattern: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(SEARCH_LIMITS.maxPatternCharacters),
      v.description('The regular expression.'),
    ),
    path: v.optional(
      v.pipe(
        v.string(),
        v.description('A file or directory to search, relative to the working directory; default the whole directory.'),
      ),
    ),
    include: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(SEARCH_LIMITS.maxPatternCharacters),
        v.description('Only search files whose relative path matches this glob, e.g. "**/*.ts".'),
      ),
    ),
    ignore_case: v.optional(v.pipe(v.boolean(), v.description('Match case-insensitively.'))),
  }),
  usage: `grep needs {"pattern": "<regex of 1 to ${SEARCH_LIMITS.maxPatternCharacters} characters>", "path"?: "<dir or file>", "include"?: "<glob>", "ignore_case"?: bool}`,
  async run(input, scope) {
    const { pattern, path, include, ignore_case: ignoreCase } = input;
    try {
      new RegExp(pattern);
    } catch (error) {
      return { text: `invalid regular expression: ${messageOf(error)}`, isError: true };
    }
    const search = await scope.files.search(
      {
        kind: 'grep',
        pattern,
        ...(path === undefined ? {} : { path }),
        ...(include === undefined ? {} : { include }),
        ...(ignoreCase === undefined ? {} : { ignoreCase }),
      },
      scope.call.signal,
    );
    if (!search.ok) return { text: search.error, isError: true };
    const { result } = search;
    const notes = [
      result.moreLines ? `[more than ${SEARCH_LIMITS.grepMatches} matches; narrow the pattern or the path]` : undefined,
      result.stoppedEarly ? `[search stopped after ${SEARCH_LIMITS.maxEntries} entries]` : undefined,
      result.skippedLarge > 0
        ? `[${result.skippedLarge} file(s) over ${SEARCH_LIMITS.maxFileBytes} bytes not searched]`
        : undefined,
      result.stoppedAtBytes === undefined
        ? undefined
        : `[search stopped after ${result.stoppedAtBytes} bytes of file contents; narrow the path or include]`,
    ].filter((note) => note !== undefined);
    const body = result.lines.length === 0 ? 'no matches' : result.lines.join('\n');
    return { text: limitText([body, ...notes].join('\n'), scope.outputBytes).text };
  },
});
