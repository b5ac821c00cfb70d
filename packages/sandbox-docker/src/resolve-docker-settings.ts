import process from 'node:process';
import * as v from 'valibot';
import { DockerSettingsError } from './docker-settings-error.ts';
import { dockerSettingsSchema, type DockerSettingsData } from './docker-settings.ts';
import { parseByteSize, settingKey } from '@hookline/core/plugin';
import { parseMount, type BindMount } from './parse-mount.ts';

/**
 * The default image. A small public image with a POSIX shell; the sandbox never pulls, so it must be
 * pulled (or built, see the README) before the first run.
 */
export const DEFAULT_IMAGE = 'busybox:stable';

/** `/tmp` as a tmpfs: writable by the hook user although the root is read-only; memory-backed and capped. */
export const DEFAULT_TMPFS: Readonly<Record<string, string>> = { '/tmp': 'rw,nosuid,nodev,noexec,size=64m,mode=1777' };

/** Every setting with its default applied and its units converted: what the provider works with. */
export interface ResolvedDockerSettings {
  readonly image: string;
  readonly mounts: readonly BindMount[];
  /** Host paths kept read-only inside writable mounts besides core's `PROTECTED_NAMES`: the host's, in code (`protectedPaths`). */
  readonly protectedPaths?: readonly string[];
  /** Host paths no hook may read, covered inside every mount: the host's, in code (`hiddenPaths`). */
  readonly hiddenPaths?: readonly string[];
  /** The host's watch of the protected paths a hook could create (`ProtectedPathsSettings.onWatch`). */
  readonly onWatch?: (paths: readonly string[]) => () => void;
  readonly workdir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly network: string;
  readonly memoryBytes: number;
  readonly pids: number;
  readonly nanoCpus: number;
  readonly user: string;
  readonly readOnly: boolean;
  readonly tmpfs: Readonly<Record<string, string>>;
  readonly capAdd: readonly string[];
  readonly noNewPrivileges: boolean;
  readonly init: boolean;
  readonly dockerHost: string | undefined;
  readonly killGraceMs: number;
  readonly maxOutputBytes: number;
  readonly pruneOrphans: boolean;
}

/**
 * Validates settings against {@link dockerSettingsSchema} and applies the defaults:
 * network `none`, every capability dropped, no-new-privileges, a read-only root with a tmpfs `/tmp`,
 * 256 pids, 512 MiB of memory without extra swap, 1 CPU, user 65534:65534 and an init process.
 * Throws a {@link DockerSettingsError} listing every problem.
 */
export function resolveDockerSettings(settings: DockerSettingsData): ResolvedDockerSettings {
  const parsed = v.safeParse(dockerSettingsSchema, settings);
  if (!parsed.success) {
    const issues: Array<{ key: string; message: string }> = parsed.issues.map((issue) => ({
      key: settingKey(issue),
      message: issue.message,
    }));
    throw new DockerSettingsError(issues);
  }
  const data = parsed.output;
  const baseDir = data.baseDir ?? process.cwd();
  const mounts = (data.mounts ?? []).map((mount) => parseMount(mount, baseDir) as BindMount);
  const targets = new Set<string>();
  const issues: Array<{ key: string; message: string }> = [];
  mounts.forEach((mount, index) => {
    if (targets.has(mount.target))
      issues.push({
        key: `mounts[${index}]`,
        message: `mounts ${mount.target} twice; give each mount its own container path`,
      });
    targets.add(mount.target);
  });
  if (issues.length > 0) throw new DockerSettingsError(issues);
  return {
    image: data.image ?? DEFAULT_IMAGE,
    mounts,
    workdir: data.workdir ?? mounts[0]?.target ?? '/tmp',
    env: { ...data.env },
    network: data.network ?? 'none',
    memoryBytes: data.memory === undefined ? 512 * 1024 * 1024 : parseByteSize(data.memory)!,
    pids: data.pids ?? 256,
    // NanoCpus is CPUs × 10⁹, an integer.
    nanoCpus: Math.round((data.cpus ?? 1) * 1e9),
    user: data.user ?? '65534:65534',
    readOnly: data.readOnly ?? true,
    tmpfs: { ...DEFAULT_TMPFS, ...data.tmpfs },
    capAdd: (data.capAdd ?? []).map((capability) => capability.replace(/^CAP_/, '')),
    noNewPrivileges: data.noNewPrivileges ?? true,
    init: data.init ?? true,
    dockerHost: data.dockerHost,
    killGraceMs: data.killGraceMs ?? 2_000,
    maxOutputBytes: data.maxOutputBytes ?? 1_048_576,
    pruneOrphans: data.pruneOrphans ?? true,
  };
}
