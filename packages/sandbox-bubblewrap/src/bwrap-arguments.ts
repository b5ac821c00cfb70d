/** What one sandboxed exec looks like, in host terms. */
export interface SandboxLayout {
  /** The arguments {@link systemArguments} made for this host. */
  readonly system: readonly string[];
  readonly network: 'none' | 'host';
  /** The hook's working directory: bound read-write at the same place, and where it starts; `/` (nothing bound) when absent. */
  readonly cwd?: string;
  readonly writable: readonly string[];
  readonly readable: readonly string[];
  /** A private empty home (tmpfs) at this path, when the host's HOME may have one. */
  readonly home?: string;
  /** Files bound read-only into the sandbox: host path by the path inside. */
  readonly files: ReadonlyMap<string, string>;
}

/** The uid and gid of every sandboxed process: `nobody`, never root, whoever runs Hookline. */
export const SANDBOX_UID = 65534;

/**
 * bwrap's arguments for one exec, up to the `--` before the command. Order matters to bwrap: a bind
 * lands on what the arguments before it made, so the private `/tmp` and home come before the
 * working directory and files that may lie inside them.
 */
export function bwrapArguments(layout: SandboxLayout): string[] {
  const args = [
    // Fresh namespaces; a cgroup namespace hides the host's cgroup paths.
    '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup',
    ...(layout.network === 'none' ? ['--unshare-net'] : []),
    '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID),
    // No user namespaces inside: a nested one would hand the hook every capability in it.
    '--disable-userns', '--assert-userns-disabled',
    '--hostname', 'hookline-sandbox',
    // The sandbox dies with Hookline; a new session keeps the hook off the host's terminal (TIOCSTI).
    '--die-with-parent', '--new-session',
    ...layout.system,
    '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp',
    ...(layout.home === undefined ? [] : ['--tmpfs', layout.home]),
  ];
  for (const path of layout.readable) args.push('--ro-bind', path, path);
  for (const path of layout.writable) args.push('--bind', path, path);
  if (layout.cwd !== undefined) args.push('--bind', layout.cwd, layout.cwd);
  for (const [inside, host] of layout.files) args.push('--ro-bind', host, inside);
  args.push('--chdir', layout.cwd ?? '/');
  return args;
}
