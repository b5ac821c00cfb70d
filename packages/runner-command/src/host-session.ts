import process from 'node:process';
import type { SandboxSession } from '@hookline/core/plugin';
import { createProcessSession } from './process-session.ts';
import { processLimits, type ProcessSettings } from './process-settings.ts';
import { fullEnvironment } from './full-environment.ts';

/** Settings of {@link createHostSession}; its `environment` is passed whole. */
export type HostSessionSettings = ProcessSettings;

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
    ...processLimits(settings),
  });
}
