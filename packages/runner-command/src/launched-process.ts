import type { OutputCapture } from '@hookline/core/plugin';

/** What to start: `runProcess` has resolved the command line and the environment already. */
export interface LaunchSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: string | Uint8Array;
  /** Descriptors the process gets as its fds 3, 4, …. */
  readonly passFds?: readonly number[];
  /** The capture cap per stream (what is read beyond it is discarded). */
  readonly limit: number;
  /** Where stdout and stderr go; each capture keeps what its cap allows. */
  readonly stdout: OutputCapture;
  readonly stderr: OutputCapture;
  /** Called with the pid as soon as it is known, before anything is awaited on the process. */
  readonly onStarted: (pid: number) => void;
  /**
   * Present when the command may run only once the caller says so (a durable hook: the journal
   * records the process group first). Every launcher calls it with the pid instead of `onStarted`,
   * holds the command behind a start gate, and runs it after `true` (or a rejection), never after
   * `false`.
   */
  readonly gate?: (pid: number) => Promise<boolean>;
}

/** How the main process of a launch ended. */
export interface Ending {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A started process, wherever it was spawned from. */
export interface LaunchedProcess {
  /** Its pid, which is also its process group's id. */
  readonly pid: number;
  /** Settles when the main process exits; rejects when that can no longer be known (the spawner died). */
  readonly ended: Promise<Ending>;
  /** Settles when its stdout and stderr are closed (or can no longer be read). */
  readonly closed: Promise<void>;
  /** Stops reading the output: a background process still holds the pipes. */
  dropOutput(): void;
}

/**
 * Starts a process in a process group of its own. Rejects with the start failure as spawn reported
 * it (`runProcess` turns it into a `CommandStartError`), or with a `CommandStartError` already.
 */
export type Launcher = (spec: LaunchSpec) => Promise<LaunchedProcess>;
