import process from 'node:process';
import { defineSandboxProvider, sandboxEnvironment, type SandboxProvider } from '@hookline/core/plugin';
import { createProcessSession } from './process-session.ts';
import { processLimits, type ProcessSettings } from './process-settings.ts';

/** Settings of {@link localSandbox}; processes get only the allow-listed variables of its `environment`. */
export type LocalSandboxSettings = ProcessSettings;

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
        ...processLimits(settings),
      });
    },
  });
}
