import process from 'node:process';
import { defineSandboxProvider, sandboxEnvironment, type SandboxProvider } from '@hookline/core';
import { DEFAULT_MAX_OUTPUT_BYTES } from './command-keys.ts';
import { DEFAULT_KILL_GRACE_MS } from './defaults.ts';
import { createProcessSession } from './process-session.ts';

/** Settings of {@link localSandbox}. */
export interface LocalSandboxSettings {
  /**
   * The environment whose allow-listed variables sandboxed processes get; default `process.env`, read
   * at every exec.
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

/**
 * The `local` sandbox provider: processes run on this machine as the host's user, each in
 * its own process group, with an allow-list of the host's variables (core's `sandboxEnvironment`:
 * PATH, HOME, USER, LOGNAME, SHELL, LANG, LC_*, TERM, TZ, TMPDIR) plus what each exec adds (the
 * preset's variables, a hook's `env_passthrough`). It is not a boundary: a hook can read its parent's
 * `/proc/<pid>/environ`, the filesystem and the network, and a process that leaves its group with
 * `setsid` outlives it — use the bubblewrap or docker sandbox for that.
 */
export function localSandbox(settings: LocalSandboxSettings = {}): SandboxProvider {
  return defineSandboxProvider({
    name: 'local',
    async doOpen(runId, signal) {
      signal.throwIfAborted();
      return createProcessSession({
        runId,
        provider: 'local',
        environment: () => sandboxEnvironment(settings.environment ?? process.env),
        killGraceMs: settings.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
        maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        ...(settings.temporaryDirectory === undefined ? {} : { temporaryDirectory: settings.temporaryDirectory }),
      });
    },
  });
}
