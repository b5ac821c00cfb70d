import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Bind, DataFile } from './bwrap-arguments.ts';
import type { HiddenCover, OpenBinds } from './open-binds.ts';
import type { OpenedPath } from './open-host-path.ts';

/** How bwrap gets one exec's binds: the layout's part, the descriptors to pass, and what to stage first. */
export interface BindPlan {
  readonly readable: readonly Bind[];
  readonly writable: readonly Bind[];
  readonly protected: readonly Bind[];
  readonly files: ReadonlyMap<string, DataFile>;
  /** The hidden paths' covers, a file's descriptor numbered as bwrap sees it. */
  readonly hidden: readonly HiddenCover[];
  /** Host descriptors to pass as bwrap's fds 3, 4, … in this order. */
  readonly passFds: readonly number[];
  /** For {@link STAGE_SCRIPT}: `d` or `f` and the host path of each object root stages; empty when none is. */
  readonly staging: readonly string[];
}

/** Who runs bwrap when it is not Hookline's own user, and where root may stage what that user cannot reach. */
export interface BindIdentity {
  readonly user: { readonly uid: number; readonly gid: number };
  /** The staging folder (see `stagingFolder`), asked for only when something must be staged. */
  readonly stage: () => string;
}

/**
 * bwrap binds each object from its descriptor (`--bind-fd`), resolving the descriptor's path itself
 * as the user it runs as. When Hookline runs as root and bwrap as nobody, an object below a folder
 * nobody may not pass (a project under /root) is bound by root first, into a private tmpfs over the
 * staging folder, at `<stage>/<n>`, and bwrap binds it from there. Either way the sandbox checks every
 * bind by device and inode before the hook starts ({@link VERIFY_SCRIPT}).
 */
export function planBinds(binds: OpenBinds, identity: BindIdentity | undefined): BindPlan {
  const passFds: number[] = [];
  const staging: string[] = [];
  const pass = (fd: number): number => passFds.push(fd) + 2;
  let stage: string | undefined;
  const source = (opened: OpenedPath): Bind => {
    if (identity === undefined || reachable(opened.path, identity.user))
      return { source: { fd: pass(opened.fd) }, path: opened.path };
    stage ??= identity.stage();
    staging.push(opened.directory ? 'd' : 'f', opened.path);
    return { source: { staged: `${stage}/${staging.length / 2}` }, path: opened.path };
  };
  const readable = binds.readable.map(source);
  const writable = binds.writable.map(source);
  const protectedBinds = binds.protected.map(source);
  const files = new Map<string, DataFile>();
  for (const [inside, file] of binds.files) files.set(inside, { fd: pass(file.fd), mode: file.mode });
  // A cover has no host source to stage: a folder is a new tmpfs, a file a copy of what /dev/null reads.
  const hidden = binds.hidden.map((cover): HiddenCover => (cover.directory ? cover : { ...cover, fd: pass(cover.fd) }));
  return { readable, writable, protected: protectedBinds, files, hidden, passFds, staging };
}

// Whether `user` (no supplementary groups) may pass every folder above `path`, as bwrap must to resolve it.
function reachable(path: string, user: { readonly uid: number; readonly gid: number }): boolean {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    let stats;
    try {
      stats = statSync(folder);
    } catch {
      return false;
    }
    const bits = stats.uid === user.uid ? 0o100 : stats.gid === user.gid ? 0o010 : 0o001;
    if ((stats.mode & bits) === 0) return false;
    if (folder === dirname(folder)) return true;
  }
}

/**
 * Run by root as `sh -c STAGE_SCRIPT hookline-stage <stage> <cgroup.procs or ""> <d|f path…> -- <command…>`
 * inside `unshare --mount` (a private mount namespace: nothing of it reaches the host's): joins the
 * hook's cgroup, mounts a tmpfs over the staging folder, binds each object there (`<stage>/1`, …),
 * then becomes the command (setpriv, then bwrap). A path swapped between Hookline's check and this
 * bind is caught by {@link VERIFY_SCRIPT} inside, before the hook starts.
 */
export const STAGE_SCRIPT = [
  'fail() { echo "hookline-stage: $*" >&2; exit 125; }',
  'stage=$1; procs=$2; shift 2',
  'if [ -n "$procs" ]; then echo $$ > "$procs" || fail "cannot join the hook\'s cgroup"; fi',
  'said=$(mount -t tmpfs -o mode=0755,size=64k,nosuid,nodev,noexec hookline-stage "$stage" 2>&1) || fail "$said"',
  'n=0',
  'while [ "$1" != -- ]; do',
  '  n=$((n + 1))',
  '  if [ "$1" = d ]; then mkdir=X-mount.mkdir; else mkdir=; : > "$stage/$n" || fail "cannot make $stage/$n"; fi',
  '  said=$(mount --bind ${mkdir:+-o "$mkdir"} "$2" "$stage/$n" 2>&1) || fail "$said"',
  '  shift 2',
  'done',
  'shift',
  'exec "$@"',
].join('\n');

/** The exit status of {@link STAGE_SCRIPT} and {@link VERIFY_SCRIPT} when they stopped the exec. */
export const STAGE_FAILED = 125;

/**
 * Run inside the sandbox as the hook starts, as `sh -c VERIFY_SCRIPT hookline-verify <identities>
 * <paths> <command…>` (each list one entry a line): bwrap 0.8 turns a `--bind-fd` descriptor back into
 * a path and resolves it itself before mounting, and root's staging binds a path too, so a concurrent
 * hook could swap that path in between. This checks every bind's device and inode inside against what
 * Hookline opened and checked, and only then becomes the hook's command.
 */
export const VERIFY_SCRIPT = [
  'set -f; IFS="',
  '"',
  'said=$(stat -L -c %d:%i -- $2 2>&1)',
  '[ "$said" = "$1" ] || { echo "hookline-verify: a bound path is not the object that was checked, so the hook did not run; try again ($said)" >&2; exit 125; }',
  'unset IFS; set +f; shift 2',
  'exec "$@"',
].join('\n');

/** The identities and paths {@link VERIFY_SCRIPT} checks, in its argument form. */
export function verifyArguments(binds: OpenBinds): [string, string] {
  const all = [...binds.readable, ...binds.writable, ...binds.protected];
  return [all.map((bind) => bind.identity).join('\n'), all.map((bind) => bind.path).join('\n')];
}
