import { join } from 'node:path';

/** The files of one build's script host in the private folder. */
export interface HostFiles {
  /** The Unix socket clients connect to. */
  readonly socket: string;
  /** The host's pid, written once it listens and removed when it exits. */
  readonly pid: string;
  /** The host's stdout and stderr (it has no terminal): why it could not start, if it could not. */
  readonly log: string;
  /** Held for the moment a host replaces a socket file that no host answers on. */
  readonly lock: string;
}

/** The names, keyed by the build: a host of another build has files of its own and never serves this one. */
export function hostFiles(folder: string, key: string): HostFiles {
  const base = join(folder, `script-${key}`);
  return { socket: `${base}.sock`, pid: `${base}.pid`, log: `${base}.log`, lock: `${base}.lock` };
}

/** How long a host waits without a client before it exits, unless `HOOKLINE_SCRIPT_HOST_IDLE_MS` says otherwise. */
export const DEFAULT_IDLE_MS = 60_000;

/** The idle period from the environment: a non-negative integer of milliseconds, else the default. */
export function idleMilliseconds(env: Readonly<Record<string, string | undefined>>): number {
  const text = env['HOOKLINE_SCRIPT_HOST_IDLE_MS'];
  const value = text === undefined || text.trim() === '' ? Number.NaN : Number(text);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_IDLE_MS;
}
