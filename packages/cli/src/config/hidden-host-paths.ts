import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CliIo } from '../cli-io.ts';
import { journalKeyPath } from '../journal/journal-key.ts';

// In the user's home: keys and tokens that sign, log in or publish as the user.
const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.config/gcloud',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.pgpass',
  '.npmrc',
  '.git-credentials',
  '.config/gh',
];
// Kept under the XDG config folder when one is set, besides ~/.config.
const XDG_CONFIG_SECRETS: readonly string[] = ['gcloud', 'gh'];

/**
 * The host paths no sandboxed hook may read (core's `ProtectedPathsSettings.hiddenPaths`): the
 * journal key's folder (`$XDG_STATE_HOME/hookline`, as `journalKeyPath` finds it), whose key would
 * let a hook seal forged entries in any project's journal, and the user's secrets — SSH and GnuPG
 * keys, cloud, Kubernetes, Docker, npm, PostgreSQL and GitHub credentials. The sandbox's private home
 * hides them already; these matter when a bind holds the home folder (a hook run from it,
 * `readable = ["~"]`, a docker mount of it).
 */
export function hiddenHostPaths(io: Pick<CliIo, 'env'>): string[] {
  const paths = new Set<string>();
  const key = journalKeyPath(io.env);
  if (key !== undefined) paths.add(dirname(key));
  const home = io.env['HOME'] || homedir();
  for (const entry of HOME_SECRETS) paths.add(join(home, ...entry.split('/')));
  const config = io.env['XDG_CONFIG_HOME'];
  if (config !== undefined && config.startsWith('/'))
    for (const entry of XDG_CONFIG_SECRETS) paths.add(join(config, entry));
  return [...paths];
}
