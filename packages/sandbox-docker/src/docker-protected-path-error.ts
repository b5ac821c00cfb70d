import { HooklineError } from '@hookline/core';

/**
 * A hook in the docker sandbox created or replaced a path that decides what runs outside the
 * sandbox later (a `hookline.toml`, an agent's settings, a git hook) inside a writable mount, or such
 * a path appeared on the host after the run's container was made (so it is not read-only inside).
 * What a hook left was moved aside, never deleted; `exec` rejects with this error, so the hook is
 * `failed` naming each path, and the emit's outcome warns about it.
 */
export class DockerProtectedPathError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_DOCKER_PROTECTED_PATH_CHANGED', message);
    this.name = 'DockerProtectedPathError';
  }
}
