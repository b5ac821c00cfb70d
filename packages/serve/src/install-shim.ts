import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from './private-files.ts';
import type { ServePaths } from './serve-paths.ts';
import { shimScript } from './shim-script.ts';

/** What {@link writeShim} needs beyond the daemon's paths. */
export interface WriteShimOptions {
  readonly agent: string;
  /** bash's absolute path. */
  readonly bash: string;
  /** `hookline bridge <agent>` as absolute words. */
  readonly fallback: readonly string[];
  /** Seconds to wait for the daemon before falling back (default 30). */
  readonly timeoutSeconds?: number;
}

/**
 * Writes the agent's shim to `$XDG_STATE_HOME/hookline/shims/<agent>` (mode 0700, in the user's
 * private state folder) and returns its path: the command an agent's hook entry runs.
 */
export function writeShim(paths: ServePaths, options: WriteShimOptions): string {
  const file = join(paths.stateDir, 'shims', options.agent);
  writePrivateFile(
    file,
    shimScript({
      agent: options.agent,
      bash: options.bash,
      portFile: paths.portFile,
      tokenFile: paths.tokenFile,
      fallback: options.fallback,
      timeoutSeconds: options.timeoutSeconds ?? 30,
    }),
  );
  chmodSync(file, 0o700);
  return file;
}
