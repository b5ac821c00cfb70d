/**
 * A host object bound into the sandbox at its real path. bwrap finds it through a descriptor it
 * inherited (`fd`: `--bind-fd`), or — when Hookline runs as root — at a path in a private staging
 * mount that only Hookline can change (`staged`), where it was bound and verified beforehand.
 */
export interface Bind {
  readonly source: { readonly fd: number } | { readonly staged: string };
  /** Where it is bound inside: its real host path, as checked. */
  readonly path: string;
}

/** A file whose content bwrap copies into the sandbox (`--ro-bind-data`): no host path shows inside. */
export interface DataFile {
  /** The descriptor's number in bwrap's process. */
  readonly fd: number;
  /** Permission bits inside, e.g. 0o600. */
  readonly mode: number;
}

/** What one sandboxed exec looks like, in host terms. */
export interface SandboxLayout {
  /** The arguments {@link systemArguments} made for this host. */
  readonly system: readonly string[];
  readonly network: 'none' | 'host';
  /** The hook's working directory (its real path): where it starts; `/` when absent. */
  readonly cwd?: string;
  /** Bound read-only, first: the `readable` settings. */
  readonly readable: readonly Bind[];
  /** Bound read-write over them: the `writable` settings, then the working directory. */
  readonly writable: readonly Bind[];
  /** Bound read-only on top of the writable binds: what decides what runs outside later. */
  readonly protected: readonly Bind[];
  /**
   * Covered last, over every bind: the hidden paths (secrets, the journal key's folder) inside them,
   * each an empty read-only folder or file of mode 000 that the hook cannot read or move.
   */
  readonly hidden?: ReadonlyArray<
    | { readonly path: string; readonly directory: true }
    | { readonly path: string; readonly directory: false; readonly fd: number }
  >;
  /** A private empty home (tmpfs) at this path, when the host's HOME may have one. */
  readonly home?: string;
  /** Files copied in read-only, by the path inside. */
  readonly files: ReadonlyMap<string, DataFile>;
}

/** The uid and gid of every sandboxed process: `nobody`, never root, whoever runs Hookline. */
export const SANDBOX_UID = 65534;

/**
 * bwrap's arguments for one exec, up to the `--` before the command. Order matters to bwrap: a bind
 * lands on what the arguments before it made, so the private `/tmp` and home come before the binds
 * that may lie inside them, the protected paths' read-only binds come after the writable binds
 * they cover, and the hidden paths' covers after every bind.
 */
export function bwrapArguments(layout: SandboxLayout): string[] {
  const args = [
    // Fresh namespaces; a cgroup namespace hides the host's cgroup paths.
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup',
    ...(layout.network === 'none' ? ['--unshare-net'] : []),
    '--uid',
    String(SANDBOX_UID),
    '--gid',
    String(SANDBOX_UID),
    // No user namespaces inside: a nested one would hand the hook every capability in it.
    '--disable-userns',
    '--assert-userns-disabled',
    '--hostname',
    'hookline-sandbox',
    // The sandbox dies with Hookline; a new session keeps the hook off the host's terminal (TIOCSTI).
    '--die-with-parent',
    '--new-session',
    ...layout.system,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    ...(layout.home === undefined ? [] : ['--tmpfs', layout.home]),
  ];
  for (const bind of layout.readable) args.push(...bindArguments(bind, true));
  for (const bind of layout.writable) args.push(...bindArguments(bind, false));
  for (const bind of layout.protected) args.push(...bindArguments(bind, true));
  for (const cover of layout.hidden ?? []) {
    // Mode 000 and read-only: the hook owns the cover inside, but cannot chmod it back open.
    args.push(
      ...(cover.directory
        ? ['--perms', '0000', '--tmpfs', cover.path, '--remount-ro', cover.path]
        : ['--perms', '0000', '--ro-bind-data', String(cover.fd), cover.path]),
    );
  }
  for (const [inside, file] of layout.files)
    args.push('--perms', file.mode.toString(8).padStart(4, '0'), '--ro-bind-data', String(file.fd), inside);
  args.push('--chdir', layout.cwd ?? '/');
  return args;
}

function bindArguments(bind: Bind, readOnly: boolean): string[] {
  const prefix = readOnly ? '--ro-bind' : '--bind';
  return 'fd' in bind.source
    ? [`${prefix}-fd`, String(bind.source.fd), bind.path]
    : [prefix, bind.source.staged, bind.path];
}
