import { HooklineError } from '@hookline/core/plugin';

/**
 * A run's container could not be created, started or made ready (a missing mount source, an unknown
 * network or user, an image without `sh`, an unwritable `/tmp`). Opening the run's sandbox rejects
 * with it; the message names the setting to fix.
 */
export class DockerContainerError extends HooklineError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HOOKLINE_DOCKER_CONTAINER_FAILED', message, options);
    this.name = 'DockerContainerError';
  }
}
