import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { AGENT_BOOT, AGENT_NAME } from './agent-script.ts';
import { LABELS, SANDBOX_MARKER } from './labels.ts';
import { ownerLabels } from './owner-identity.ts';
import type { ResolvedDockerSettings } from './resolve-docker-settings.ts';
import type { HiddenCover } from './secure-mounts.ts';

/**
 * The create options of a run's container: the sandbox's hardening from the resolved settings, the
 * labels that name the run and the owner, and the container agent as the main process (with a stdin
 * that stays open while no client is attached). The image needs `sh`, `mkdir` and `rm`, nothing else.
 */
export function containerSpec(
  runId: string,
  settings: ResolvedDockerSettings,
  covers: readonly HiddenCover[] = [],
): Docker.ContainerCreateOptions {
  return {
    name: containerName(runId),
    Image: settings.image,
    Entrypoint: ['sh', '-c', AGENT_BOOT, AGENT_NAME],
    Cmd: [],
    User: settings.user,
    WorkingDir: settings.workdir,
    Env: Object.entries(settings.env).map(([name, value]) => `${name}=${value}`),
    Labels: { [LABELS.sandbox]: SANDBOX_MARKER, [LABELS.runId]: runId, ...ownerLabels() },
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    OpenStdin: true,
    StdinOnce: false,
    NetworkDisabled: settings.network === 'none',
    HostConfig: {
      NetworkMode: settings.network,
      CapDrop: ['ALL'],
      CapAdd: [...settings.capAdd],
      SecurityOpt: settings.noNewPrivileges ? ['no-new-privileges'] : [],
      ReadonlyRootfs: settings.readOnly,
      Tmpfs: { ...settings.tmpfs },
      PidsLimit: settings.pids,
      Memory: settings.memoryBytes,
      // Equal to Memory: no swap on top, so a memory hog meets the limit (and the OOM killer) instead of the disk.
      MemorySwap: settings.memoryBytes,
      NanoCpus: settings.nanoCpus,
      Init: settings.init,
      Mounts: [
        ...settings.mounts.map((mount): Docker.MountSettings => ({
          Type: 'bind',
          Source: mount.source,
          Target: mount.target,
          ReadOnly: mount.readOnly,
        })),
        // Empty and read-only over each hidden path; Docker mounts a deeper target after its parent.
        ...covers.map((cover): Docker.MountSettings =>
          cover.directory
            ? {
                Type: 'tmpfs',
                Source: '',
                Target: cover.target,
                ReadOnly: true,
                TmpfsOptions: { SizeBytes: 4096, Mode: 0o100 },
              }
            : { Type: 'bind', Source: '/dev/null', Target: cover.target, ReadOnly: true },
        ),
      ],
      // The provider removes its containers itself; a restart policy would resurrect a container it is removing.
      RestartPolicy: { Name: 'no' },
      // The agent's answers are read through the attach stream; logging them would only fill the engine's disk.
      LogConfig: { Type: 'none', Config: {} },
      AutoRemove: false,
    },
  };
}

/** `hookline-<run id, made safe>-<random>`: readable in `docker ps`, unique even when run ids repeat. */
function containerName(runId: string): string {
  const safe = runId
    .replace(/[^a-zA-Z0-9_.-]+/g, '-')
    .replace(/^[^a-zA-Z0-9]+/, '')
    .slice(0, 40);
  return `hookline-${safe === '' ? 'run' : safe}-${randomBytes(4).toString('hex')}`;
}
