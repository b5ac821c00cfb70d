/**
 * Whether Node was started with `--no-node-snapshot`, on its command line or in `NODE_OPTIONS`.
 * isolated-vm's README requires it on Node ≥ 20: V8 shares read-only heap data between isolates, and
 * isolates that start from a different snapshot than Node's own can crash the whole process.
 */
export function nodeSnapshotDisabled(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env['NODE_OPTIONS'] ?? '',
): boolean {
  return execArgv.includes('--no-node-snapshot') || nodeOptions.split(/\s+/).includes('--no-node-snapshot');
}

/** The failure of every script hook in a process started without the flag. */
export const NODE_SNAPSHOT_ERROR =
  'script hooks need Node started with --no-node-snapshot (isolated-vm: without it, isolates can crash the whole process); ' +
  'run `node --no-node-snapshot …` or set NODE_OPTIONS=--no-node-snapshot, or pass scriptRunner({ allowNodeSnapshot: true }) to take that risk';
