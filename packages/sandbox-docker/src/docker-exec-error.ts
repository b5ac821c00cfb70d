import { HooklineError } from '@hookline/core/plugin';

/**
 * Why an exec in a run's container could not run or complete. `exec` rejects with it, so the
 * command runner reports the hook `failed` with this message and its `on_error` decides:
 *
 * - `start`: the process could not be started (missing shell or working directory, NUL in the command);
 * - `out_of_memory`: the kernel killed it at the container's memory limit;
 * - `pids_limit`: it hit the container's pids limit (forks failed, e.g. a fork bomb);
 * - `container`: the run's container died or was restarted while it ran;
 * - `disposed`: the session was disposed.
 */
export class DockerExecError extends HooklineError {
  readonly kind: DockerExecErrorKind;

  constructor(kind: DockerExecErrorKind, message: string, options?: { cause?: unknown }) {
    super('HOOKLINE_DOCKER_EXEC_FAILED', message, options);
    this.name = 'DockerExecError';
    this.kind = kind;
  }
}

/** See {@link DockerExecError}. */
export type DockerExecErrorKind = 'start' | 'out_of_memory' | 'pids_limit' | 'container' | 'disposed';
