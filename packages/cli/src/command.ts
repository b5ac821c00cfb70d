import type { CliIo } from './cli-io.ts';

/** One `hookline` command: its help text and what it does. Resolves to the exit code. */
export interface Command {
  readonly help: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}
