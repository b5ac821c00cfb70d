import process from 'node:process';

/** Where a command writes: stdout or stderr, with what the terminal tells about itself. */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Everything a command touches outside itself, passed in so that nothing reaches for globals. */
export interface CliIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** `--quiet`: print no human summary and no warnings; errors and asked-for output only. */
  readonly quiet?: boolean;
}

/**
 * The real process's streams, environment and working directory. The streams are getters: Node makes
 * `process.stdin` (a reader, and the stream modules behind it) on first use, and most commands never
 * read it — nor write to stderr.
 */
export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
  };
}
