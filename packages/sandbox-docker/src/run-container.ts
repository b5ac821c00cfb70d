import type Docker from 'dockerode';
import { messageOf } from '@hookline/core/plugin';
import type { DockerConnection } from './connect-docker.ts';
import { AgentRequestError, attachAgent, type ContainerAgent } from './container-agent.ts';
import { containerSpec } from './container-spec.ts';
import { secureMounts, writableSources } from './secure-mounts.ts';
import { DockerContainerError } from './docker-container-error.ts';
import { engineMessage, statusOf } from './docker-errors.ts';
import { DockerImageMissingError } from './docker-image-missing-error.ts';
import type { ResolvedDockerSettings } from './resolve-docker-settings.ts';

/** A started container of one run, with its agent attached. */
export interface RunContainer {
  readonly container: Docker.Container;
  readonly id: string;
  readonly name: string;
  readonly agent: ContainerAgent;
  /** The real sources of its writable mounts. */
  readonly writable: readonly string[];
  /** The host paths it has bound read-only on top of its writable mounts (see `secureMounts`). */
  readonly protectedPaths: readonly string[];
  /** The real sources of all its mounts. */
  readonly sources: readonly string[];
  /** The hidden host paths it covers. */
  readonly hiddenPaths: readonly string[];
}

// A container starts in well under a second; an engine that takes this long is stuck, not slow.
const READY_TIMEOUT_MS = 30_000;

/**
 * Creates and starts a run's container and waits for its agent to say it is ready (which proves the
 * image has `sh` and the sandbox user can write `/tmp`). A container that fails any step is removed
 * before the error is thrown, as is one whose start finishes after `signal` aborted. `track` learns
 * the container's id as soon as it exists, so the provider can remove it even while this runs.
 */
export async function runContainer(
  connection: DockerConnection,
  runId: string,
  settings: ResolvedDockerSettings,
  signal: AbortSignal,
  track: (id: string) => void,
): Promise<RunContainer> {
  const { docker, address } = connection;
  try {
    await docker.getImage(settings.image).inspect();
  } catch (error) {
    if (statusOf(error) === 404) throw new DockerImageMissingError(settings.image, address);
    throw new DockerContainerError(`could not look up image "${settings.image}": ${engineMessage(error)}`, {
      cause: error,
    });
  }
  signal.throwIfAborted();
  // Resolved now, for this container: a link planted since the last one cannot redirect a mount.
  const secured = secureMounts(settings.mounts, settings.protectedPaths ?? [], settings.hiddenPaths ?? []);
  const spec = containerSpec(runId, { ...settings, mounts: secured.mounts }, secured.covers);
  let container: Docker.Container;
  try {
    container = await docker.createContainer(spec);
  } catch (error) {
    throw new DockerContainerError(
      `could not create the container of run "${runId}" from image "${settings.image}": ${createHint(error)}`,
      { cause: error },
    );
  }
  track(container.id);
  let agent: Awaited<ReturnType<typeof attachAgent>> | undefined;
  try {
    signal.throwIfAborted();
    agent = await attachAgent(container);
    await container.start();
    await waitReady(agent.ready, runId, settings);
    signal.throwIfAborted();
    return {
      container,
      id: container.id,
      name: spec.name ?? container.id,
      agent,
      writable: writableSources(secured.mounts.slice(0, settings.mounts.length)),
      protectedPaths: secured.protectedPaths,
      sources: secured.mounts.slice(0, settings.mounts.length).map((mount) => mount.source),
      hiddenPaths: secured.hiddenPaths,
    };
  } catch (error) {
    agent?.close();
    await container.remove({ force: true }).catch(() => undefined);
    if (statusOf(error) !== undefined) {
      throw new DockerContainerError(
        `could not start the container of run "${runId}" from image "${settings.image}": ${createHint(error)}`,
        { cause: error },
      );
    }
    throw error;
  }
}

async function waitReady(ready: Promise<void>, runId: string, settings: ResolvedDockerSettings): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AgentRequestError(`no answer within ${READY_TIMEOUT_MS / 1000} s`)),
      READY_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([ready, late]);
  } catch (error) {
    const reason = messageOf(error);
    throw new DockerContainerError(
      `the container of run "${runId}" (image "${settings.image}") did not become ready: ${reason.trim()}; ` +
        `the image needs sh, mkdir and rm, and /tmp must be writable by user ${settings.user} (the default tmpfs /tmp is; check [sandbox.docker] tmpfs)`,
    );
  } finally {
    clearTimeout(timer);
  }
}

function createHint(error: unknown): string {
  const message = engineMessage(error);
  if (message.includes('bind source path does not exist'))
    return `${message}; every host folder in [sandbox.docker] mounts must exist`;
  if (/network .* not found/i.test(message))
    return `${message}; [sandbox.docker] network must be "none", "bridge", "host" or an existing network`;
  if (/unable to find user|no matching entries in passwd/i.test(message))
    return `${message}; [sandbox.docker] user must be a uid[:gid] or a user of the image`;
  if (/executable file not found|no such file or directory/.test(message))
    return `${message}; the image must have sh (the sandbox's agent and hooks run with it)`;
  return message;
}
