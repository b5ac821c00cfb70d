import { posix } from 'node:path';
import type { BindMount } from './parse-mount.ts';

/**
 * The working directory inside the container for a context's `cwd`. Hosts usually pass their own
 * working directory, a host path: when it lies inside a mounted folder it is translated (with
 * `./:/workspace`, `/home/me/repo/src` becomes `/workspace/src`). Another absolute path is taken
 * as a path inside the container; a relative one is relative to `workdir`. Without a `cwd`, `workdir`.
 */
export function containerCwd(cwd: string | undefined, workdir: string, mounts: readonly BindMount[]): string {
  if (cwd === undefined) return workdir;
  if (!cwd.startsWith('/')) return posix.join(workdir, cwd);
  const normalized = posix.normalize(cwd).replace(/(.)\/+$/, '$1');
  let best: BindMount | undefined;
  for (const mount of mounts) {
    const inside =
      normalized === mount.source || normalized.startsWith(mount.source === '/' ? '/' : `${mount.source}/`);
    if (inside && (best === undefined || mount.source.length > best.source.length)) best = mount;
  }
  if (best === undefined) return normalized;
  return posix.join(best.target, normalized.slice(best.source.length));
}
