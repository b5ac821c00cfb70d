import { lstatSync, readFileSync, readlinkSync, realpathSync, renameSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { PROTECTED_NAMES } from '@hookline/core/plugin';
import { within } from './path-within.ts';

/** How a protected path looked before a hook ran: absent, or one file system object. */
type Fingerprint =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly dev: number;
      readonly ino: number;
      readonly type: string;
      readonly link?: string;
    };

/** One protected path that changed while a hook ran, and what the guard did about it. */
export interface ProtectedPathChange {
  /** The host path, as resolved before the hook ran. */
  readonly path: string;
  /** `created` (it did not exist), `replaced` (another file or link is there now), `removed` (it is gone). */
  readonly change: 'created' | 'replaced' | 'removed';
  /** Where what the hook left there was moved, for `created` and `replaced`; absent when moving it failed. */
  readonly quarantinedAt?: string;
  /** Why moving it aside failed. */
  readonly problem?: string;
}

/** What a sandbox must do about the protected paths of one exec, and the check to run after it. */
export interface ProtectedPathsGuard {
  /**
   * The protected paths that exist inside a writable root, as real paths (no link in them): bind
   * each read-only on top of the writable bind. A bound directory cannot be renamed or removed from
   * inside (EBUSY), so nothing under it changes.
   */
  readonly existing: readonly string[];
  /**
   * The writable roots that lie inside a protected path themselves (a cwd of `.git`): binding them
   * writable would hand the hook what it must not change.
   */
  readonly insideProtected: ReadonlyArray<{ readonly root: string; readonly protectedPath: string }>;
  /**
   * The protected paths inside a writable root that do not exist: a hook could create them, so they
   * are announced to the host (`ProtectedPathsSettings.onWatch`) while it runs and checked after it.
   */
  readonly absent: readonly string[];
  /**
   * Compares every protected path with how it looked before the exec; what a hook created or
   * replaced is moved aside to `<path>.hookline-quarantine-<time>` (never deleted), and listed.
   */
  settle(): ProtectedPathChange[];
}

/**
 * Works out, before a sandboxed exec, which protected paths its writable roots (real paths: the
 * working directory and the `writable` settings) expose: every {@link PROTECTED_NAMES} entry under
 * each root, and every absolute `hostPaths` entry (the config files, the journal, plugin folders the
 * host named) inside one. A protected link is not followed for the bind (a mount lands on the link's
 * target), so its target is protected too, and the link itself is fingerprinted. Paths that do not
 * exist are fingerprinted as absent: a bind would have to create them on the host first.
 */
export function guardProtectedPaths(roots: readonly string[], hostPaths: readonly string[]): ProtectedPathsGuard {
  const candidates = new Set<string>();
  for (const root of roots) {
    for (const name of PROTECTED_NAMES) candidates.add(join(root, ...name.split('/')));
    // A repository's own hooks folder (`core.hooksPath = scripts/hooks`) runs on the next commit like .git/hooks.
    const hooksPath = gitHooksPath(root);
    if (hooksPath !== undefined) candidates.add(hooksPath);
  }
  for (const path of hostPaths) if (isAbsolute(path)) candidates.add(resolve(path));

  const fingerprints = new Map<string, Fingerprint>();
  const existing: string[] = [];
  const pending = [...candidates].map(realLocation);
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (fingerprints.has(path) || !roots.some((root) => within(path, root))) continue;
    const print = fingerprint(path);
    fingerprints.set(path, print);
    if (print.kind === 'absent') continue;
    if (print.link === undefined) {
      if (print.type === 'directory' || print.type === 'file') existing.push(path);
      continue;
    }
    // The link stays writable (nothing can be bound over a link itself); what it points to must not be.
    const target = resolveQuietly(path);
    if (target !== undefined) pending.push(target);
  }
  // A root inside a protected path (a cwd of `.git` or inside it, a plugin folder the host named)
  // must not be bound writable at all.
  const locations = [...candidates].map(realLocation);
  const insideProtected: Array<{ root: string; protectedPath: string }> = [];
  for (const root of roots) {
    const holder =
      protectedAbove(root) ?? locations.find((path) => within(root, path) && fingerprint(path).kind === 'present');
    if (holder !== undefined) insideProtected.push({ root, protectedPath: holder });
  }
  return {
    existing: existing.filter((path) => !existing.some((other) => other !== path && within(path, other))),
    insideProtected,
    absent: [...fingerprints].filter(([, print]) => print.kind === 'absent').map(([path]) => path),
    settle: () => settle(fingerprints),
  };
}

function settle(fingerprints: ReadonlyMap<string, Fingerprint>): ProtectedPathChange[] {
  const changes: ProtectedPathChange[] = [];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  for (const [path, before] of fingerprints) {
    const now = fingerprint(path);
    if (same(before, now)) continue;
    if (now.kind === 'absent') {
      changes.push({ path, change: 'removed' });
      continue;
    }
    const change = before.kind === 'absent' ? 'created' : 'replaced';
    const quarantinedAt = `${path}.hookline-quarantine-${stamp}`;
    try {
      renameSync(path, quarantinedAt);
      changes.push({ path, change, quarantinedAt });
    } catch (error) {
      changes.push({ path, change, problem: (error as NodeJS.ErrnoException).code ?? String(error) });
    }
  }
  return changes;
}

/**
 * A readable account of what a hook changed among the protected paths, for the hook's failure:
 * each path, what happened, where it went, and what to do.
 */
export function describeProtectedPathChanges(provider: string, changes: readonly ProtectedPathChange[]): string {
  const lines = changes.map((change) => {
    if (change.change === 'removed')
      return `${change.path} was moved or removed (through a folder above it); check where it went and put it back`;
    const what = change.change === 'created' ? 'was created' : 'was replaced';
    return change.quarantinedAt === undefined
      ? `${change.path} ${what} and could not be moved aside (${change.problem ?? 'unknown error'}): inspect it before Hookline, an agent or git runs anything from it`
      : `${change.path} ${what}; it was moved aside to ${change.quarantinedAt}: inspect it, then delete it, or move it back if you trust it`;
  });
  return `the hook changed what decides what runs outside the ${provider} sandbox later (Hookline's config, journal or plugins, a coding agent's settings, version control hooks), so it failed: ${lines.join('; ')}. Run hooks that must change these with sandbox = false.`;
}

// Agents keep more than settings in their folders — Codex its worktrees, in ~/.codex/worktrees — so
// a folder inside one is a project like any other; the folder itself holds the settings.
const SETTINGS_FOLDERS: ReadonlySet<string> = new Set(['.claude', '.gemini', '.codex', '.cursor']);

// The protected folder a path passes through by name (`/srv/app/.git/objects` → `/srv/app/.git`), if any.
function protectedAbove(path: string): string | undefined {
  const parts = path.split('/');
  for (let end = 1; end <= parts.length; end++) {
    for (const name of PROTECTED_NAMES) {
      if (SETTINGS_FOLDERS.has(name) && end !== parts.length) continue;
      const named = name.split('/');
      if (end - named.length >= 1 && named.every((part, index) => parts[end - named.length + index] === part))
        return parts.slice(0, end).join('/');
    }
  }
  return undefined;
}

// `core.hooksPath` of the repository whose work tree is `root`, resolved as git does (relative to the
// work tree; `~/` to the home), when its .git/config sets one. A rough read of the INI file: enough to
// find the key, which is all that is needed to protect one more folder.
function gitHooksPath(root: string): string | undefined {
  let config: string;
  try {
    config = readFileSync(join(root, '.git', 'config'), 'utf8');
  } catch {
    return undefined;
  }
  let section = '';
  let found: string | undefined;
  for (const line of config.split('\n')) {
    const header = /^\s*\[\s*([^\]\s"]+)/.exec(line);
    if (header !== null) section = header[1]!.toLowerCase();
    const entry = /^\s*hookspath\s*=\s*"?([^"#;]*?)"?\s*(?:[#;].*)?$/i.exec(line);
    if (section === 'core' && entry !== null && entry[1] !== '') found = entry[1];
  }
  if (found === undefined) return undefined;
  if (found.startsWith('~/')) return join(homedir(), found.slice(2));
  return resolve(root, found);
}

// The path with every link above its last component resolved: where the name really is. The last
// component is left as it is, so a protected link is seen as the link it is.
function realLocation(path: string): string {
  const parent = dirname(path);
  if (parent === path) return path;
  try {
    return join(realpathSync(parent), basename(path));
  } catch {
    return join(realLocation(parent), basename(path));
  }
}

function resolveQuietly(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    // A dangling link: protect where it points, so that creating its target is noticed too.
    try {
      return realLocation(resolve(dirname(path), readlinkSync(path)));
    } catch {
      return undefined;
    }
  }
}

// Identity, not content or times: what exists is bound read-only, so from inside it can only be
// replaced (through a folder above it), which a new inode shows; times would also change with the
// host's own work meanwhile (a commit in .git, the engine writing its journal), and what is moved
// aside must only ever be what a hook made.
function fingerprint(path: string): Fingerprint {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return { kind: 'absent' };
  }
  const type = stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : stats.isSymbolicLink() ? 'link' : 'other';
  return {
    kind: 'present',
    dev: stats.dev,
    ino: stats.ino,
    type,
    ...(stats.isSymbolicLink() ? { link: readlinkSync(path) } : {}),
  };
}

function same(before: Fingerprint, now: Fingerprint): boolean {
  if (before.kind === 'absent' || now.kind === 'absent') return before.kind === now.kind;
  return before.dev === now.dev && before.ino === now.ino && before.type === now.type && before.link === now.link;
}

export { within } from './path-within.ts';
export {
  describeHiddenPathChanges,
  guardHiddenPaths,
  type HiddenPath,
  type HiddenPathChange,
  type HiddenPathsGuard,
} from './hidden-paths.ts';
