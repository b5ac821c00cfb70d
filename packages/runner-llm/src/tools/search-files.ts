import { matchesGlob } from 'node:path';
import { openRegularFile } from './open-regular-file.ts';
import { SEARCH_LIMITS, type ListedFile, type SearchJob, type SearchResult } from './search-job.ts';
import { walkFiles, type WalkedFile } from './walk-files.ts';

/**
 * Runs a search job: walks the files under `start` (or goes through the files a sandbox listed) and
 * collects matching lines (grep) or paths (glob). Pure CPU and file reads, meant for a worker
 * thread: a pathological regular expression or brace pattern from the model can run for a very long
 * time, and only a worker can be stopped then.
 */
export async function searchFiles(job: SearchJob): Promise<SearchResult> {
  const state = { maxEntries: SEARCH_LIMITS.maxEntries, truncated: false };
  const limit = job.kind === 'grep' ? SEARCH_LIMITS.grepMatches : SEARCH_LIMITS.globPaths;
  const expression = job.kind === 'grep' ? new RegExp(job.pattern, job.ignoreCase === true ? 'i' : '') : undefined;
  const lines: string[] = [];
  let skippedLarge = 0;
  const files: AsyncIterable<ListedFile | WalkedFile> | Iterable<ListedFile> =
    'files' in job ? job.files : walkFiles(job.root, job.start, state);
  for await (const file of files) {
    if (expression === undefined) {
      if (matchesGlob(file.relative, job.pattern)) lines.push(file.relative);
    } else {
      if (job.include !== undefined && !matchesGlob(file.relative, job.include)) continue;
      const data = 'path' in file ? await readSmallFile(file.path) : listedContent(file);
      if (data === 'large') {
        skippedLarge++;
        continue;
      }
      // A NUL byte early on: a binary file, whose "lines" mean nothing.
      if (data === undefined || data.subarray(0, 8_192).includes(0)) continue;
      const text = data.toString('utf8').split(/\r?\n/);
      for (let index = 0; index < text.length && lines.length <= limit; index++) {
        if (expression.test(text[index]!)) lines.push(`${file.relative}:${index + 1}: ${cut(text[index]!)}`);
      }
    }
    if (lines.length > limit) break;
  }
  return { lines: lines.slice(0, limit), moreLines: lines.length > limit, stoppedEarly: state.truncated, skippedLarge };
}

/**
 * A walked file's bytes; `'large'` over the size limit; undefined when it cannot be read or is no
 * longer a regular file (the walk saw a regular file, but it may have been replaced by a FIFO since:
 * opened without blocking, it is skipped).
 */
async function readSmallFile(path: string): Promise<Buffer | 'large' | undefined> {
  const opened = await openRegularFile(path, path, 'read');
  if (!opened.ok) return undefined;
  const { file, stats } = opened;
  try {
    if (stats.size > SEARCH_LIMITS.maxFileBytes) return 'large';
    return await file.readFile();
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

/** A listed file's content as a sandbox sent it: up to one byte over the limit, to tell a file that is too large. */
function listedContent(file: ListedFile): Buffer | 'large' | undefined {
  if (file.data === undefined) return undefined;
  return file.data.length > SEARCH_LIMITS.maxFileBytes
    ? 'large'
    : Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
}

function cut(line: string): string {
  const characters = Array.from(line);
  return characters.length <= SEARCH_LIMITS.maxLineCharacters
    ? line
    : `${characters.slice(0, SEARCH_LIMITS.maxLineCharacters).join('')}…`;
}
