/**
 * The messages between a host and its resident spawner (see `resident-spawner.ts`), one JSON value
 * each over Node's IPC channel. Bytes travel as base64: JSON has no binary type, and output beyond
 * the capture cap never travels at all.
 */

/** Host → spawner: start a process, or stop reading its output. */
export type SpawnerRequest =
  | {
      readonly type: 'spawn';
      readonly id: number;
      readonly file: string;
      readonly args: readonly string[];
      readonly cwd?: string;
      readonly env: Readonly<Record<string, string>>;
      /** What the process reads on stdin; absent: stdin is closed at once. */
      readonly stdin?: string;
      /** Whether `stdin` is base64 (the request's data was bytes) rather than text. */
      readonly stdinBase64?: boolean;
      /** Bytes forwarded per stream at most; the capture keeps `limit - 1` and sees that more came. */
      readonly limit: number;
      /**
       * The command line is a start gate's (see `start-gate.ts`): the process gets a pipe as its fd 3,
       * which the spawner holds until a `gate` message opens or shuts it. A spawner that dies first
       * takes the pipe's end with it, so the command never runs.
       */
      readonly gated?: boolean;
    }
  | { readonly type: 'drop'; readonly id: number }
  /** Opens (`go`) or shuts for good the start gate of a gated request. */
  | { readonly type: 'gate'; readonly id: number; readonly go: boolean };

/** Spawner → host: what became of a request, in the order it happened. */
export type SpawnerReport =
  | { readonly type: 'started'; readonly id: number; readonly pid: number }
  | { readonly type: 'failed'; readonly id: number; readonly code?: string; readonly message: string }
  | { readonly type: 'output'; readonly id: number; readonly fd: 1 | 2; readonly data: string }
  | {
      readonly type: 'exit';
      readonly id: number;
      readonly code: number | null;
      readonly signal: string | null;
      /** Whether the output is closed too (no `closed` report follows). */
      readonly closed: boolean;
    }
  | { readonly type: 'closed'; readonly id: number };
