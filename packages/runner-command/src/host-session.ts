import process from 'node:process';
import type { SandboxSession } from '@hookline/core';
import { DEFAULT_MAX_OUTPUT_BYTES } from './command-keys.ts';
import { DEFAULT_KILL_GRACE_MS } from './defaults.ts';
import { createProcessSession } from './process-session.ts';
import { fullEnvironment } from './full-environment.ts';

/** Settings of {@link createHostSession}. */
export interface HostSessionSettings {
  /** The environment processes start from; default `process.env`, read at every exec, kept whole. */
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
 * A session on the host for `sandbox = false` work: the host's full environment, otherwise the same
 * process handling as the local sandbox (own process group, kill on abort, bounded output). The
 * command runner uses one for unsandboxed hooks; other runners may use it for host-side shell work.
 */
export function createHostSession(settings: HostSessionSettings = {}): SandboxSession {
  return createProcessSession({
    runId: 'host',
    provider: 'host',
    environment: () => fullEnvironment(settings.environment ?? process.env),
    killGraceMs: settings.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    ...(settings.temporaryDirectory === undefined ? {} : { temporaryDirectory: settings.temporaryDirectory }),
  });
}
