import { connectDocker } from './connect-docker.ts';
import type { DockerSettingsData } from './docker-settings.ts';
import { pruneContainers, type PruneOptions, type PruneReport } from './prune-containers.ts';
import { resolveDockerSettings } from './resolve-docker-settings.ts';

/**
 * Removes the containers that Hookline processes left behind when they died (`kill -9`, a crash, a
 * reboot) — what `hookline sandbox prune` runs. A container is removed when its owner process, per
 * its labels, no longer exists on this machine (or its process id now belongs to a newer process),
 * or ran on a previous boot. Containers of live processes are kept, and so are those created from
 * another machine sharing the engine, unless `includeOtherHosts` is set. Only `dockerHost` of the
 * settings matters. Rejects with a `DockerUnavailableError` when the engine cannot be reached.
 */
export async function pruneDockerSandboxes(
  settings: DockerSettingsData = {},
  options: PruneOptions = {},
): Promise<PruneReport> {
  const connection = await connectDocker(resolveDockerSettings(settings).dockerHost);
  return pruneContainers(connection, options);
}
