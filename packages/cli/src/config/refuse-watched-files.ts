import { realpathSync } from 'node:fs';
import { watchingProcess } from './protected-path-watch.ts';
import { CliError } from '../cli-error.ts';
import type { ConfigFile } from './find-config-files.ts';

/**
 * Refuses a config file that did not exist when a sandboxed hook still running started, in a folder
 * that hook may write: the hook may have made it, and the sandbox moves such a file aside and fails
 * the hook only once the hook has ended. Loading it meanwhile would run what a sandboxed hook wrote,
 * maybe with `sandbox = false`.
 */
export function refuseWatchedFiles(files: readonly ConfigFile[]): void {
  for (const file of files) {
    let real: string;
    try {
      real = realpathSync(file.path);
    } catch {
      continue;
    }
    const pid = watchingProcess(real);
    if (pid === undefined) continue;
    throw new CliError(
      'HOOKLINE_CLI_CONFIG_UNTRUSTED',
      `${file.label} did not exist when a sandboxed hook of Hookline process ${pid} started, in a folder that hook may write, so it may have written it; Hookline does not load it while that hook runs. Try again once it has ended: a file the hook made is then moved aside to ${real}.hookline-quarantine-<time>.`,
    );
  }
}
