import { HooklineError } from '@hookline/core/plugin';

/**
 * Thrown when the hooks about to run need Node flags this process was not started with (script
 * hooks: `--no-node-snapshot`) and no script host can stand in. A program that runs hooks answers it
 * with {@link NodeFlagsRequired.restart}: the same command again in a child process that has the
 * flags, before any hook ran and before stdin was read. It is recognised across copies of the package
 * by its marker (`NodeFlagsRequired.isInstance`, or `Symbol.for('hookline.error.NodeFlagsRequired')`
 * for a caller that must not import this package before it knows it needs it).
 */
export class NodeFlagsRequired extends HooklineError {
  readonly flags: readonly string[];
  /** A line for stderr before the restart, when the user should know why it happens (see the script host). */
  readonly note: string | undefined;

  constructor(flags: readonly string[], note?: string) {
    super(
      'HOOKLINE_NODE_FLAGS_REQUIRED',
      `this command needs Node started with ${flags.join(' ')}; run it with \`node ${flags.join(' ')}\` or NODE_OPTIONS=${flags.join(' ')}`,
    );
    this.name = 'NodeFlagsRequired';
    this.flags = flags;
    this.note = note;
  }

  /**
   * Runs this program again (`process.argv[1]` with `argv`) with the flags added to Node's, the same
   * stdio and signals passed on, and resolves to the child's exit code.
   */
  async restart(argv: readonly string[]): Promise<number> {
    // Loaded only when a restart happens: most runs never need it.
    const { restartWithNodeFlags } = await import('./restart-with-node-flags.ts');
    return restartWithNodeFlags(this.flags, argv);
  }
}
