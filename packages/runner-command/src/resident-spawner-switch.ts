import process from 'node:process';
import { ResidentSpawner } from './resident-spawner.ts';

// On globalThis rather than in this module: a host may load more than one copy of this package (the
// CLI's bundled one, and the one a sandbox package imports), and the host's choice holds for all.
const SWITCH = Symbol.for('@hookline/runner-command/resident-spawner');

let spawner: ResidentSpawner | undefined;

/**
 * Turns the resident spawner on (or off) for every process this process starts through
 * `runProcess` — every command hook, on the host or in the local sandbox — from now on. For a
 * long-lived host such as `hookline serve`: its processes are then forked from a small helper
 * process, started on first use, instead of from the host, whose memory makes every fork slower.
 * A short-lived process gains nothing from it and should leave it off (the default).
 * Processes that must be passed descriptors (bubblewrap's `--bind-fd`) are still spawned in-process.
 * Node only: under Deno or Bun the switch is ignored.
 */
export function useResidentSpawner(enabled = true): void {
  (globalThis as Record<symbol, unknown>)[SWITCH] = enabled;
}

/** The resident spawner when it is switched on and can run here. */
export function residentSpawner(): ResidentSpawner | undefined {
  if ((globalThis as Record<symbol, unknown>)[SWITCH] !== true) return undefined;
  if (process.versions['deno'] !== undefined || process.versions['bun'] !== undefined) return undefined;
  return (spawner ??= new ResidentSpawner());
}
