import process from 'node:process';
import { defineSandboxProvider, type SandboxProvider } from '@hookline/core';
import { DEFAULT_MAX_OUTPUT_BYTES } from './command-keys.ts';
import { DEFAULT_KILL_GRACE_MS } from './defaults.ts';
import { createProcessSession } from './process-session.ts';
import { scrubEnvironment } from './scrub-environment.ts';

/** Settings of {@link localSandbox}. */
export interface LocalSandboxSettings {
  /**
   * The environment sandboxed processes start from, before credentials are removed; default
   * `process.env`, read at every exec.
   */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Time between SIGTERM and SIGKILL to a process group that must end; default 2 000 ms (SPEC §7). */
  readonly killGraceMs?: number;
  /** Capture cap per stream for execs that set none; default 1 MiB. */
  readonly maxOutputBytes?: number;
  /**
   * Where the private directory for context files is made. Default: `$XDG_RUNTIME_DIR`, else
   * `/dev/shm` on Linux, else the OS temp directory — memory-backed first, so contexts stay off disk.
   */
  readonly temporaryDirectory?: string;
}

/**
 * The `local` sandbox provider (SPEC §11): processes run on this machine as the host's user, each in
 * its own process group, with the host environment minus names ending in `_API_KEY`, `_SECRET`,
 * `_TOKEN`, `_PASSWORD` or `_CREDENTIAL`. It contains the environment and the process group, not the
 * filesystem or the network, and not a process that leaves its group with `setsid` — use the docker
 * sandbox for that.
 */
export function localSandbox(settings: LocalSandboxSettings = {}): SandboxProvider {
  return defineSandboxProvider({
    name: 'local',
    async doOpen(runId, signal) {
      signal.throwIfAborted();
      return createProcessSession({
        runId,
        provider: 'local',
        environment: () => scrubEnvironment(settings.environment ?? process.env),
        killGraceMs: settings.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
        maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        ...(settings.temporaryDirectory === undefined ? {} : { temporaryDirectory: settings.temporaryDirectory }),
      });
    },
  });
}
