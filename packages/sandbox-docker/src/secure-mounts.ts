import { realpathSync } from 'node:fs';
import { posix } from 'node:path';
import { guardHiddenPaths, guardProtectedPaths, within } from '@hookline/runner-command/protected-paths';
import { DockerContainerError } from './docker-container-error.ts';
import type { BindMount } from './parse-mount.ts';

// The host's system folders and the kernel's: a mount source that is or holds one hands the container the host.
const SYSTEM_FOLDERS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/boot',
  '/proc',
  '/sys',
  '/dev',
  '/root',
  '/var',
];

/** A run container's binds as the engine gets them, and what they keep read-only. */
export interface SecuredMounts {
  /** Every mount with its source resolved (links followed), then a read-only bind per protected path inside a writable one. */
  readonly mounts: readonly BindMount[];
  /** The host paths bound read-only on top of writable mounts, and the hidden paths covered. */
  readonly protectedPaths: readonly string[];
  /** Empty covers of the hidden paths inside any mount, by container path: an empty read-only tmpfs for a folder, `/dev/null` for a file. */
  readonly covers: readonly HiddenCover[];
  /** The host paths those covers hide. */
  readonly hiddenPaths: readonly string[];
}

/** An empty cover nested over a hidden path inside a mount. */
export interface HiddenCover {
  readonly target: string;
  readonly directory: boolean;
}

/**
 * Resolves each mount source now (every link followed) and checks it as resolved: `/` or a folder
 * that holds a system folder is refused, whatever the configured path says. Inside each writable
 * (`:rw`) mount, every protected path that exists (core's `PROTECTED_NAMES` under the source, and the
 * host's `protectedPaths`) gets a read-only bind nested on top — Docker mounts the deeper target
 * after its parent. A writable mount inside a protected path is refused. Inside every mount, `:ro` or
 * `:rw`, each hidden path that exists (the host's `hiddenPaths`: secrets, the journal key's folder)
 * gets an empty cover instead, and a mount inside one is refused. Throws a
 * {@link DockerContainerError} naming the resolved path.
 */
export function secureMounts(
  mounts: readonly BindMount[],
  hostProtected: readonly string[],
  hostHidden: readonly string[] = [],
): SecuredMounts {
  const resolved = mounts.map((mount) => {
    let source: string;
    try {
      source = realpathSync(mount.source);
    } catch (error) {
      throw new DockerContainerError(
        `the mount source ${mount.source} (for ${mount.target}) does not exist or cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)}); every host folder in [sandbox.docker] mounts must exist`,
        { cause: error },
      );
    }
    if (source === '/' || SYSTEM_FOLDERS.some((system) => within(system, source))) {
      const via = source === mount.source ? '' : ` (${mount.source} resolves to it through a link)`;
      throw new DockerContainerError(
        `the docker sandbox does not mount ${source}${via} at ${mount.target}: it is / or holds system folders of the host; mount a folder of its own (a project folder).`,
      );
    }
    return { ...mount, source };
  });
  const hidden = guardHiddenPaths(
    resolved.map((mount) => mount.source),
    hostHidden,
  );
  const holder = hidden.insideHidden[0];
  if (holder !== undefined) {
    throw new DockerContainerError(
      `the docker sandbox does not mount ${holder.root}: it lies inside ${holder.hiddenPath}, which hooks must not read (your secrets, or the journal key that seals durable hooks' entries); mount another folder, or run the hooks that must read it with sandbox = false.`,
    );
  }
  const covers: HiddenCover[] = [];
  const hiddenPaths: string[] = [];
  for (const mount of resolved) {
    for (const cover of hidden.covered) {
      if (!within(cover.path, mount.source)) continue;
      covers.push({
        target: posix.join(mount.target, cover.path.slice(mount.source.length)),
        directory: cover.directory,
      });
      hiddenPaths.push(cover.path);
    }
  }
  const nested: BindMount[] = [];
  const protectedPaths: string[] = [...new Set(hiddenPaths)];
  for (const mount of resolved) {
    if (mount.readOnly) continue;
    const guard = guardProtectedPaths([mount.source], hostProtected);
    const inside = guard.insideProtected[0];
    if (inside !== undefined) {
      throw new DockerContainerError(
        `the docker sandbox does not mount ${mount.source} writable at ${mount.target}: it lies inside ${inside.protectedPath}, which decides what runs outside the sandbox later (Hookline's config, journal or plugins, a coding agent's settings, version control hooks); mount it :ro, or run the hooks that must change it with sandbox = false.`,
      );
    }
    for (const path of guard.existing) {
      // Under a cover already: read-only and out of sight, and a second mount at one target is an error.
      if (hiddenPaths.some((covered) => within(path, covered))) continue;
      nested.push({ source: path, target: posix.join(mount.target, path.slice(mount.source.length)), readOnly: true });
      protectedPaths.push(path);
    }
  }
  return { mounts: [...resolved, ...nested], protectedPaths, covers, hiddenPaths: [...new Set(hiddenPaths)] };
}

/** The real sources of the writable mounts: where a hook can change the host. */
export function writableSources(mounts: readonly BindMount[]): string[] {
  return mounts.filter((mount) => !mount.readOnly).map((mount) => mount.source);
}
