import { HooklineError, messageOf } from '@hookline/core/plugin';

/**
 * The Docker engine could not be reached (no socket, connection refused, no permission). Opening a
 * run's sandbox rejects with it, so the hook is `failed` with this message and its `on_error` decides.
 */
export class DockerUnavailableError extends HooklineError {
  /** Where the engine was looked for, e.g. `unix:///var/run/docker.sock`. */
  readonly address: string;

  constructor(address: string, cause: unknown) {
    super(
      'HOOKLINE_DOCKER_UNAVAILABLE',
      `Docker engine not reachable at ${address} (${describeCause(cause)}): start Docker, point DOCKER_HOST or [sandbox.docker] docker_host at a running engine, or set [sandbox] provider = "local"`,
      { cause },
    );
    this.name = 'DockerUnavailableError';
    this.address = address;
  }
}

function describeCause(cause: unknown): string {
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (code === 'ENOENT') return 'no such socket';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'EACCES') return 'permission denied: the user running Hookline may not use the socket';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timed out';
  return messageOf(cause);
}
