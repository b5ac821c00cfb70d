import { isAbsolute, resolve } from 'node:path';

/** A bind mount of a host folder into the run's container. */
export interface BindMount {
  /** Absolute host path. */
  readonly source: string;
  /** Absolute path inside the container. */
  readonly target: string;
  readonly readOnly: boolean;
}

/**
 * Reads `"host:container[:ro|rw]"`. The host path is resolved against `baseDir` when relative; the
 * mount is read-only unless it ends in `:rw`, because hooks that only inspect a checkout are the
 * common case and a writable bind is the one that can damage the host. Returns a message when the
 * string is not a mount.
 */
export function parseMount(mount: string, baseDir: string): BindMount | string {
  const parts = mount.split(':');
  const last = parts.at(-1);
  const mode = parts.length === 3 ? last : undefined;
  if (parts.length < 2 || parts.length > 3 || (mode !== undefined && mode !== 'ro' && mode !== 'rw')) {
    return `${JSON.stringify(mount)} is not "host:container[:ro|rw]" (a host path, a container path, and optionally ro or rw)`;
  }
  const [source = '', target = ''] = parts;
  if (source === '') return `${JSON.stringify(mount)} has no host path before the ":"`;
  if (!target.startsWith('/'))
    return `${JSON.stringify(mount)}: the container path must be absolute, e.g. "/workspace"`;
  if (target === '/')
    return `${JSON.stringify(mount)}: mounting over the container's root is not supported; pick a folder such as "/workspace"`;
  return {
    source: isAbsolute(source) ? resolve(source) : resolve(baseDir, source),
    target: target.replace(/\/+$/, ''),
    readOnly: mode !== 'rw',
  };
}
