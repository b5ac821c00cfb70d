import type { SearchResult } from './search-job.ts';

/** A file tool's failure, as the text the model gets back (an `is_error` result). */
export interface ToolRefusal {
  readonly ok: false;
  readonly error: string;
}

/** The start of a file, as `read_file` returns it. */
export interface FileText {
  readonly ok: true;
  readonly text: string;
  /** The file's whole size in bytes. */
  readonly size: number;
  /** How many bytes `text` was decoded from (less than `size` when the file was cut). */
  readonly bytesRead: number;
}

/** A `grep` or `glob` as the tool received it: `path` is the model's, not yet confined. */
export interface SearchRequest {
  readonly kind: 'grep' | 'glob';
  readonly pattern: string;
  readonly path?: string;
  readonly include?: string;
  readonly ignoreCase?: boolean;
}

/**
 * Where the agent's file tools act: the host's directory (`sandbox = false`), or the hook's sandbox
 * session, through its exec, so that the files are those the sandbox's shell sees and its mounts
 * decide what may be written. Both apply the same confinement to the working directory.
 */
export interface FileAccess {
  /** `host`, or the sandbox provider's name, for texts. */
  readonly where: string;
  /** The working directory as a physical path, as this side sees it. */
  readonly root: string;
  read(requested: unknown, maxBytes: number): Promise<FileText | ToolRefusal>;
  /** Creates or replaces a regular file (mode 0644), making missing parents; resolves to the path shown to the model. */
  write(requested: unknown, content: string): Promise<{ readonly ok: true; readonly shown: string } | ToolRefusal>;
  search(
    request: SearchRequest,
    signal: AbortSignal,
  ): Promise<{ readonly ok: true; readonly result: SearchResult } | ToolRefusal>;
}
