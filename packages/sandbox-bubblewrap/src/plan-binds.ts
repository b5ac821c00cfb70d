import type { Bind, DataFile } from './bwrap-arguments.ts';
import type { OpenBinds } from './open-binds.ts';

/** How bwrap gets one exec's binds: the layout's part, the descriptors to pass, and what to stage first. */
export interface BindPlan {
  readonly readable: readonly Bind[];
  readonly writable: readonly Bind[];
  readonly protected: readonly Bind[];
  readonly files: ReadonlyMap<string, DataFile>;
  /** Host descriptors to pass as bwrap's fds 3, 4, … in this order. */
  readonly passFds: readonly number[];
  /** For {@link STAGE_SCRIPT}: `d|f`, the expected `dev:ino`, and the host path of each staged bind. */
  readonly staging: readonly string[];
}

/**
 * Without a staging folder, bwrap binds each object from its descriptor (`--bind-fd`). With one
 * (Hookline runs as root, bwrap as nobody, who may not pass the folders above a project), each object
 * is bound by root into a private tmpfs over that folder first, at `<stage>/<n>`, and verified there
 * to be the very object that was checked; bwrap binds it from there.
 */
export function planBinds(binds: OpenBinds, stage: string | undefined): BindPlan {
  const passFds: number[] = [];
  const staging: string[] = [];
  const pass = (fd: number): number => passFds.push(fd) + 2;
  const source = (opened: OpenBinds['writable'][number]): Bind => {
    if (stage === undefined) return { source: { fd: pass(opened.fd) }, path: opened.path };
    staging.push(opened.directory ? 'd' : 'f', opened.identity, opened.path);
    return { source: { staged: `${stage}/${staging.length / 3}` }, path: opened.path };
  };
  const readable = binds.readable.map(source);
  const writable = binds.writable.map(source);
  const protectedBinds = binds.protected.map(source);
  const files = new Map<string, DataFile>();
  for (const [inside, file] of binds.files) files.set(inside, { fd: pass(file.fd), mode: file.mode });
  return { readable, writable, protected: protectedBinds, files, passFds, staging };
}

/**
 * Run by root as `sh -c STAGE_SCRIPT hookline-stage <stage> <cgroup.procs or ""> <staging…> -- <command…>`
 * inside `unshare --mount` (a private mount namespace: nothing of it reaches the host's): joins the
 * hook's cgroup, mounts a tmpfs over the staging folder, binds each object there and checks its
 * device and inode against what Hookline opened and checked — a path swapped for a link in between
 * fails the exec instead of binding something else — then becomes the command (setpriv, then bwrap).
 */
export const STAGE_SCRIPT = [
  'fail() { echo "hookline-stage: $*" >&2; exit 125; }',
  'stage=$1; procs=$2; shift 2',
  'if [ -n "$procs" ]; then echo $$ > "$procs" || fail "cannot join the hook\'s cgroup"; fi',
  'said=$(mount -t tmpfs -o mode=0755,size=64k,nosuid,nodev,noexec hookline-stage "$stage" 2>&1) || fail "$said"',
  'n=0',
  'while [ "$1" != -- ]; do',
  '  n=$((n + 1))',
  '  if [ "$1" = d ]; then mkdir "$stage/$n"; else : > "$stage/$n"; fi || fail "cannot make $stage/$n"',
  '  said=$(mount --bind "$3" "$stage/$n" 2>&1) || fail "$said"',
  '  [ "$(stat -c %d:%i "$stage/$n")" = "$2" ] || fail "$3 changed while the sandbox was being made; try again"',
  '  shift 3',
  'done',
  'shift',
  'exec "$@"',
].join('\n');

/** The exit status of {@link STAGE_SCRIPT} when it could not stage the binds. */
export const STAGE_FAILED = 125;

/**
 * Run inside the sandbox, as an ordinary user's hook starts, as `sh -c VERIFY_SCRIPT hookline-verify
 * <identities> <paths> <command…>` (each list one entry a line): bwrap 0.8 turns a `--bind-fd`
 * descriptor back into a path and resolves it itself before mounting, so a concurrent hook could swap
 * that path in between. This checks every bind's device and inode inside against what Hookline opened
 * and checked, and only then becomes the hook's command.
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
