import { fileTooLarge } from './config-bounds.ts';
import type { ConfigSource } from './read-config-source.ts';
import { jsonSourceLines } from './source-lines.ts';

/**
 * A source for a file the host found too large before reading it (its size from the file system): it
 * carries the issue, so loading reports it with every other problem, and the file is never read.
 */
export function oversizedConfigSource(file: string, bytes: number): ConfigSource {
  return {
    file,
    data: {},
    lines: jsonSourceLines(() => undefined),
    plugins: [],
    parseIssue: fileTooLarge(file, bytes),
  };
}
