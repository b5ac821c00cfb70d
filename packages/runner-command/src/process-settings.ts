import { DEFAULT_MAX_OUTPUT_BYTES } from './command-keys.ts';
import { DEFAULT_KILL_GRACE_MS } from './defaults.ts';

/** Settings shared by the sessions that start processes on this machine (host and local). */
export interface ProcessSettings {
  /**
   * The environment processes start from; default `process.env`, read at every exec. The host session
   * passes it whole; the local sandbox passes only its allow-listed variables.
   */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Time between SIGTERM and SIGKILL to a process group that must end; default 2 000 ms. */
  readonly killGraceMs?: number;
  /** Capture cap per stream for execs that set none; default 1 MiB. */
  readonly maxOutputBytes?: number;
  /**
   * Where the private directory for context files is made. Default: `$XDG_RUNTIME_DIR`, else
   * `/dev/shm` on Linux, else the OS temp directory — memory-backed first, so contexts stay off disk.
   */
  readonly temporaryDirectory?: string;
}

/** The settings' limits and directory, with their defaults, as `createProcessSession` takes them. */
export function processLimits(settings: ProcessSettings): {
  killGraceMs: number;
  maxOutputBytes: number;
  temporaryDirectory?: string;
} {
  return {
    killGraceMs: settings.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    ...(settings.temporaryDirectory === undefined ? {} : { temporaryDirectory: settings.temporaryDirectory }),
  };
}
