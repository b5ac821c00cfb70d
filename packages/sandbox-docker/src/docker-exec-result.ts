import type { ExecResult } from '@hookline/core/plugin';

/**
 * An {@link ExecResult} of the docker sandbox. `signal` is always `null`: Docker reports a process
 * ended by signal N as exit code 128 + N and cannot tell it from a process that exited so.
 */
export interface DockerExecResult extends ExecResult {
  /**
   * What the caller should know beyond the exit: the container had stopped and the hook ran in a
   * replacement, an exit code 137 whose cause cannot be told. A runner may add them to its report.
   */
  readonly warnings: readonly string[];
}
