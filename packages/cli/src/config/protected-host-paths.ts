import { homedir } from 'node:os';
import { dirname, join, parse, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../cli-io.ts';
import type { JournalChoice } from '../journal/journal-path.ts';
import { findConfigFiles } from './find-config-files.ts';
import { hiddenHostPaths } from './hidden-host-paths.ts';

/** What of a loaded setup names files: the config files read, where the CLI looked, the plugin folders. */
export interface ProtectedSetup {
  readonly files: ReadonlyArray<{ readonly file: { readonly path: string } }>;
  readonly searched: readonly string[];
  readonly folders: readonly string[];
}

// In the user's home: what agents, git and shells read when they next start, each running commands.
const HOME_ENTRIES: readonly string[] = [
  '.claude',
  '.gemini',
  '.codex',
  '.cursor',
  '.copilot',
  '.codeium',
  '.gitconfig',
  '.config/git',
  '.config/hookline',
  '.bashrc',
  '.bash_profile',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.config/fish',
];

/**
 * The host paths a sandbox must keep out of a hook's reach besides core's `PROTECTED_NAMES`, which a
 * provider applies under every writable folder itself: the config files this command loaded, every
 * file it or a later command would discover (`$XDG_CONFIG_HOME/hookline/hookline.toml`,
 * `./hookline.toml`, `.agent/settings.toml`), the journal file, the `node_modules` folders plugins
 * are resolved from (every one above each config folder, as Node looks), the one holding this CLI,
 * the user's agent settings, git config and shell startup files, and the hidden paths
 * (`hiddenHostPaths`): where they are absent a hook must not create them either — a journal key it
 * planted would be trusted, an `~/.ssh/authorized_keys` or `~/.npmrc` acted upon.
 */
export function protectedHostPaths(
  setup: ProtectedSetup,
  journal: JournalChoice,
  io: Pick<CliIo, 'cwd' | 'env'>,
): string[] {
  const paths = new Set<string>();
  for (const file of setup.files) paths.add(file.file.path);
  for (const path of setup.searched) paths.add(path);
  // With --config the defaults were not searched, but the next command without it will read them.
  for (const path of findConfigFiles(undefined, io.cwd, io.env).searched) paths.add(path);
  if (journal.kind === 'sqlite')
    for (const suffix of ['', '-wal', '-shm', '-journal']) paths.add(`${journal.location}${suffix}`);
  for (const folder of setup.folders) for (const above of ancestors(folder)) paths.add(join(above, 'node_modules'));
  paths.add(cliInstallation());
  const home = io.env['HOME'] || homedir();
  for (const entry of HOME_ENTRIES) paths.add(join(home, ...entry.split('/')));
  for (const path of hiddenHostPaths(io)) paths.add(path);
  return [...paths];
}

function ancestors(folder: string): string[] {
  const found = [folder];
  for (let current = folder; dirname(current) !== current; current = dirname(current)) found.push(dirname(current));
  return found;
}

// The node_modules folder this CLI was installed into, or its own package folder when it runs from a
// checkout (the folder above the `dist` its bundle is in, or the `src` of its sources).
function cliInstallation(): string {
  const here = fileURLToPath(import.meta.url);
  const parts = here.split(sep);
  const installed = parts.lastIndexOf('node_modules');
  if (installed > 0) return parts.slice(0, installed + 1).join(sep);
  const built = Math.max(parts.lastIndexOf('dist'), parts.lastIndexOf('src'));
  return built > 0 ? parts.slice(0, built).join(sep) || parse(here).root : dirname(here);
}
