/** The part of `@hookline/runner-script`'s `NodeFlagsRequired` that `main` uses. */
export interface NodeFlagsRestart {
  /** A line for stderr before the restart, when the user should know why it happens. */
  readonly note: string | undefined;
  restart(argv: readonly string[]): Promise<number>;
}

/**
 * The error when it is runner-script's `NodeFlagsRequired` (the hooks about to run need Node flags
 * this process lacks), recognised by the class's `Symbol.for` marker: `main` must not import
 * runner-script, an optional package, just to ask.
 */
export function nodeFlagsRestart(error: unknown): NodeFlagsRestart | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const marked = (error as Record<symbol, unknown>)[Symbol.for('hookline.error.NodeFlagsRequired')] === true;
  return marked && typeof (error as Partial<NodeFlagsRestart>).restart === 'function'
    ? (error as NodeFlagsRestart)
    : undefined;
}
