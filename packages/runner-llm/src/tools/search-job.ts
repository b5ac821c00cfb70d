/** A file a sandbox listed, with its content for `grep` (at most `maxFileBytes + 1` bytes: more means too large). */
export interface ListedFile {
  /** Its path relative to the working directory, with `/` separators. */
  readonly relative: string;
  readonly data?: Uint8Array;
}

/** Where a search's files come from: a walk of the host's directory, or a list a sandbox sent. */
export type SearchSource =
  | {
      /** The working directory (a real path). */
      readonly root: string;
      /** Where the walk starts: a real path inside `root` (a file, for grep on one file). */
      readonly start: string;
    }
  | { readonly files: readonly ListedFile[] };

/** A `grep` or `glob` over the working directory, as data that can cross into a worker thread. */
export type SearchJob = SearchSource & {
  readonly kind: 'grep' | 'glob';
  /** grep: a JavaScript regular expression; glob: a glob matched against paths relative to `root`. */
  readonly pattern: string;
  /** grep only: a glob the relative path of a searched file must match. */
  readonly include?: string;
  readonly ignoreCase?: boolean;
};

/** What a search found: result lines (`path:line: text` or paths) and what cut it short. */
export interface SearchResult {
  readonly lines: readonly string[];
  /** More lines matched than are listed. */
  readonly moreLines: boolean;
  /** The walk stopped at its entry limit. */
  readonly stoppedEarly: boolean;
  /** grep: files not searched because they are too large. */
  readonly skippedLarge: number;
  /** The sandbox's output reached this many bytes, and the files beyond were not searched. */
  readonly stoppedAtBytes?: number;
}

/** At most this many result lines are listed. */
export const SEARCH_LIMITS = {
  grepMatches: 200,
  globPaths: 500,
  /** Files larger than this are not grepped (logs, bundles, data). */
  maxFileBytes: 1_048_576,
  /** A walk stops after this many directory entries. */
  maxEntries: 50_000,
  /** A matching line longer than this is cut. */
  maxLineCharacters: 300,
  /** Longer patterns are refused: nothing legitimate needs them. */
  maxPatternCharacters: 1_000,
} as const;
