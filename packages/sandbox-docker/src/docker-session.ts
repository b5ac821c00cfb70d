import { createInFlight, type ExecRequest, type SandboxSession } from '@hookline/core/plugin';
import { DockerExecError } from './docker-exec-error.ts';
import type { DockerExecResult } from './docker-exec-result.ts';
import type { DockerSandboxInfo } from './docker-sandbox-events.ts';
import type { RunSandbox } from './run-sandbox.ts';

/** A session of the docker sandbox: the run's container, as one opener of the run sees it. */
export interface DockerSandboxSession extends SandboxSession {
  exec(request: ExecRequest): Promise<DockerExecResult>;
  /** The run's container now (it changes if the container had to be replaced). */
  readonly container: DockerSandboxInfo;
  /**
   * What the engine puts into the context of `sandbox_ready` and `sandbox_cleanup`, under
   * `sandbox` next to `provider`: `container_id`, `container_name`, `image`, and `replaced` (how
   * many times the run's container had to be replaced so far).
   */
  readonly details: Readonly<Record<string, string | number>>;
  /** Everything worth knowing that happened to the run's container (replacements, failed removals). */
  readonly warnings: readonly string[];
}

/**
 * A handle on a run's sandbox. Several handles may share one run (two openers of the same
 * `run_id`); disposing one ends the execs started through it and lets go of the run, whose
 * container is removed when the last handle is disposed.
 */
export function createDockerSession(
  runId: string,
  sandbox: RunSandbox,
  release: () => Promise<void>,
): DockerSandboxSession {
  const lifetime = new AbortController();
  const running = createInFlight();
  let disposing: Promise<void> | undefined;
  const disposed = (): DockerExecError =>
    new DockerExecError('disposed', `the docker session of run "${runId}" was disposed`);

  return {
    runId,
    provider: 'docker',
    get container() {
      return sandbox.info();
    },
    get details() {
      const info = sandbox.info();
      return {
        container_id: info.containerId,
        container_name: info.containerName,
        image: info.image,
        replaced: info.replaced,
      };
    },
    get warnings() {
      return sandbox.warnings;
    },
    exec(request) {
      if (lifetime.signal.aborted) return Promise.reject(disposed());
      return running.track(sandbox.exec(request, lifetime.signal));
    },
    writeFile(request) {
      if (lifetime.signal.aborted) return Promise.reject(disposed());
      return sandbox.writeFile(request);
    },
    removeFile(path) {
      return sandbox.removeFile(path);
    },
    dispose() {
      disposing ??= (async () => {
        lifetime.abort(disposed());
        await running.settled();
        await release();
      })();
      return disposing;
    },
  };
}
