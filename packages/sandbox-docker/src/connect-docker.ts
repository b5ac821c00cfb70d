import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import type Docker from 'dockerode';
import { DockerUnavailableError } from './docker-unavailable-error.ts';

/** A Docker client and a description of where it points, for messages. */
export interface DockerConnection {
  readonly docker: Docker;
  /** e.g. `unix:///var/run/docker.sock` or `tcp://10.0.0.5:2375`. */
  readonly address: string;
}

// The engine answers a ping in milliseconds; a socket that accepts but never answers must not hang a run.
const PING_TIMEOUT_MS = 5_000;

/**
 * Connects to the engine named by `dockerHost`, else `DOCKER_HOST`, else the local socket, and pings
 * it. dockerode is imported here, on first use, so loading this package costs nothing until a run
 * needs a container. Rejects with a {@link DockerUnavailableError} that says what to do.
 */
export async function connectDocker(dockerHost: string | undefined): Promise<DockerConnection> {
  const { default: DockerClient } = await import('dockerode');
  const address = dockerHost ?? process.env['DOCKER_HOST'] ?? `unix://${defaultSocket()}`;
  let docker: Docker;
  try {
    docker = new DockerClient(clientOptions(dockerHost));
  } catch (error) {
    throw new DockerUnavailableError(address, error);
  }
  const connection = { docker, address };
  await pingDocker(connection);
  return connection;
}

/** Pings the engine; rejects with a {@link DockerUnavailableError}. */
export async function pingDocker(connection: DockerConnection): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // Rejected with the error itself: a timeout has no cause of its own to wrap.
    timer = setTimeout(
      () => reject(new DockerUnavailableError(connection.address, { code: 'ETIMEDOUT' })),
      PING_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([connection.docker.ping(), timeout]);
  } catch (error) {
    throw DockerUnavailableError.isInstance(error) ? error : new DockerUnavailableError(connection.address, error);
  } finally {
    clearTimeout(timer);
  }
}

function clientOptions(dockerHost: string | undefined): Docker.DockerOptions | undefined {
  if (dockerHost === undefined) return undefined; // dockerode reads DOCKER_HOST (and its TLS variables) itself
  if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) };
  const url = new URL(dockerHost);
  return { protocol: 'http', host: url.hostname, port: url.port };
}

// The same search as dockerode's: Docker Desktop's per-user socket first, then the system one.
function defaultSocket(): string {
  const user = join(homedir(), '.docker', 'run', 'docker.sock');
  return existsSync(user) ? user : '/var/run/docker.sock';
}
