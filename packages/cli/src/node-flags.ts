import process from 'node:process';

/**
 * Thrown when the hooks about to run need Node flags this process was not started with (script
 * hooks: `--no-node-snapshot`). `main` answers it by running the same command again in a child
 * process that has them, before any hook ran and before stdin was read.
 */
export class NodeFlagsRequired extends Error {
  readonly flags: readonly string[];
  /** A line for stderr before the restart, when the user should know why it happens (see the script host). */
  readonly note: string | undefined;

  constructor(flags: readonly string[], note?: string) {
    super(`this command needs Node started with ${flags.join(' ')}`);
    this.name = 'NodeFlagsRequired';
    this.flags = flags;
    this.note = note;
  }
}

/** Which of `flags` this process lacks, on its command line and in NODE_OPTIONS. */
export function missingNodeFlags(flags: Iterable<string>): string[] {
  const present = new Set([...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)]);
  return [...new Set(flags)].filter((flag) => !present.has(flag));
}
