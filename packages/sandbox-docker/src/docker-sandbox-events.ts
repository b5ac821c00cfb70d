/** A run's container, as callbacks and the session's `details` describe it. */
export interface DockerSandboxInfo {
  readonly runId: string;
  readonly containerId: string;
  readonly containerName: string;
  readonly image: string;
  /** How many times the container was replaced during the run (a died container, a restart to end stuck processes). */
  readonly replaced: number;
}

/**
 * Callbacks a host can pass to `dockerSandbox()` (code only, not `[sandbox.docker]`). The engine
 * emits `sandbox_ready`/`sandbox_cleanup` itself, from the session's `details`; these are for hosts
 * that want to know without hooks, and for logging.
 */
export interface DockerSandboxCallbacks {
  /**
   * After a run's container is up (and again after it was replaced, with `replaced` > 0), before
   * any hook runs in it. A rejection fails the opening: the container is removed and the hook that
   * needed it is `failed` with the rejection's message.
   */
  readonly onReady?: (info: DockerSandboxInfo) => void | Promise<void>;
  /** Before a run's container is removed, while it still exists. A rejection becomes a warning. */
  readonly onCleanup?: (info: DockerSandboxInfo) => void | Promise<void>;
  /** Something worth telling that is not a hook's result: a replaced container, a failed removal, orphans pruned. */
  readonly onWarning?: (message: string, runId: string | undefined) => void;
}
