import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of a hook's `file`: relative paths start from the folder of the config file that
 * names the hook (its `source.file`, a path or a `file:` URL). A source name that is not a path, such
 * as one given to `loadConfig` for text from stdin, makes that the working directory.
 */
export function resolveScriptFile(file: string, configSource: string): string {
  const configPath = configSource.startsWith('file:') ? fileURLToPath(configSource) : configSource;
  return resolve(dirname(configPath), file);
}
