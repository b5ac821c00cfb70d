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
  /** `hookline bridge <agent> …` as a shell command line (words quoted). */
  readonly fallbackCommand: string;
  /** Seconds to wait for the daemon before falling back (default 30). */
  readonly timeoutSeconds?: number;
  /** The preset the config is read as (`--preset`), sent as `?preset=`. */
  readonly preset?: string | undefined;
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
      fallbackCommand: options.fallbackCommand,
      timeoutSeconds: options.timeoutSeconds ?? 30,
      query: options.preset === undefined ? '' : `?preset=${encodeURIComponent(options.preset)}`,
    }),
  );
  chmodSync(file, 0o700);
  return file;
}
