import { join } from 'node:path';
import type { WorkspacePackage } from '../workspace/workspace-packages.ts';

/** One typed entry point of a published package, and where its report lives. */
export interface EntryPoint {
  /** As users import it: `@hookline/core/plugin`. */
  readonly specifier: string;
  /** The emitted declarations of the entry point. */
  readonly declarations: string;
  /** The committed report: `<package>/etc/<name>.api.md`. */
  readonly report: string;
  /** The package's folder: declarations under it are the package's own. */
  readonly packageDir: string;
}

/**
 * The typed entry points of a package's `exports` map (a subpath whose target has a `types`
 * condition), none for a private package. `@hookline/core/plugin` → `packages/core/etc/core-plugin.api.md`.
 */
export function entryPoints(found: WorkspacePackage): EntryPoint[] {
  const { manifest, dir } = found;
  if (manifest.private === true || typeof manifest.exports !== 'object' || manifest.exports === null) return [];
  const base = manifest.name.replace(/^@[^/]+\//, '');
  return Object.entries(manifest.exports as Record<string, unknown>).flatMap(([subpath, target]) => {
    const types =
      typeof target === 'object' && target !== null ? (target as Record<string, unknown>)['types'] : undefined;
    if (typeof types !== 'string') return [];
    const name = subpath === '.' ? base : `${base}-${subpath.replace(/^\.\//, '').replaceAll('/', '-')}`;
    return [
      {
        specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, '')}`,
        declarations: join(dir, types),
        report: join(dir, 'etc', `${name}.api.md`),
        packageDir: dir,
      },
    ];
  });
}
