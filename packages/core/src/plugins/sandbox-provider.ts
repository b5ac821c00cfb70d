/** One process to run inside a sandbox session. */
export interface ExecRequest {
  /** A shell string (run as `{shell} -c command`) or an argv array (run directly). */
  readonly command: string | readonly string[];
  /** Shell for string commands; `sh` unless the preset says otherwise. */
  readonly shell?: string;
  /** Variables added on top of the session's base environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to the process's stdin, which is then closed. A process that never reads it is fine. */
  readonly stdin?: string | Uint8Array;
  /** Working directory inside the sandbox; the session's default when absent. */
  readonly cwd?: string;
  /** Aborting kills the process and everything it started (TERM, grace, KILL). */
  readonly signal?: AbortSignal;
  /** Per-stream capture limit; the excess is dropped and flagged, the process keeps running. */
  readonly maxOutputBytes?: number;
  /**
   * Told the pid of the process the exec started — the leader of its own process group — when it
   * runs on this host (the local sandbox, host hooks); a provider whose processes live elsewhere (a
   * container) does not call it. The engine records it for durable hooks ({@link RunCall.onProcessStarted}):
   * the promise says whether the command may run (see there).
   */
  readonly onStarted?: (pid: number) => Promise<boolean>;
}

/** How an exec ended. Spawn failures reject the promise instead, with a message naming the cause. */
export interface ExecResult {
  /** `null` when the process was ended by a signal. */
  readonly exitCode: number | null;
  /** The signal that ended it, e.g. `SIGKILL`, else `null`. */
  readonly signal: string | null;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** True when `signal` aborted the exec and the process was killed for it. */
  readonly aborted: boolean;
  /**
   * What the provider wants the hook's report to say beyond the exit (e.g. "the container had
   * stopped; this hook ran in a replacement"). Runners copy them into their report's warnings.
   */
  readonly warnings?: readonly string[];
}

/** A file written into a session, e.g. the hook's context file. */
export interface SandboxFileRequest {
  /** A file name (no directories); the session picks a private directory for it. */
  readonly name: string;
  readonly data: string | Uint8Array;
  /** Permission bits; `0o600` unless given. */
  readonly mode?: number;
}

/** The sandbox of one run: every sandboxed hook of that `run_id` executes through it. */
export interface SandboxSession {
  readonly runId: string;
  /** The provider's name, for reports. */
  readonly provider: string;
  /** What hooks of the sandbox events may know about the session (a container id, an image). */
  readonly details?: Readonly<Record<string, unknown>>;
  exec(request: ExecRequest): Promise<ExecResult>;
  /** Writes a file and resolves to its path as processes inside the session see it. */
  writeFile(request: SandboxFileRequest): Promise<string>;
  /** Removes a file written with `writeFile`; removing a missing file is not an error. */
  removeFile(path: string): Promise<void>;
  /** Ends everything the session still runs and frees it. Idempotent. */
  dispose(): Promise<void>;
}

/** The version of the `SandboxProvider` interface (and `SandboxSession`) this core speaks; changing them bumps it. */
export const SANDBOX_PROVIDER_INTERFACE_VERSION = 'v1';

/**
 * Creates sandbox sessions, one per run. A factory's result (`localSandbox()`, `dockerSandbox()`).
 *
 * A provider that is a security boundary and binds host folders writable into its sandboxes must
 * keep what decides what runs outside later out of a hook's reach: every {@link PROTECTED_NAMES}
 * entry under each writable folder, and the absolute paths the host names in its factory's
 * `protectedPaths` setting ({@link ProtectedPathsSettings}: the CLI passes its config files, the
 * ones it would discover, its journal and its plugin folders), read-only where they exist; where one
 * does not exist and a hook created it, the exec must not end quietly — the first-party providers
 * move it aside and reject the exec, so the hook fails naming it. Every host path is bound as it
 * resolves (links followed) at bind time, after being checked as resolved.
 */
export interface SandboxProvider {
  readonly sandboxProviderInterfaceVersion: typeof SANDBOX_PROVIDER_INTERFACE_VERSION;
  /** The name `[sandbox] provider` selects it by: `local`, `docker`, or a plugin's. */
  readonly name: string;
  /** Called by the engine on a run's first sandboxed hook. */
  doOpen(runId: string, signal: AbortSignal): Promise<SandboxSession>;
  /** Frees provider-wide resources when the engine closes, after every session was disposed. */
  doClose?(): Promise<void>;
}

/** Identity helper that types a sandbox provider object and stamps the interface version. */
export function defineSandboxProvider(
  provider: Omit<SandboxProvider, 'sandboxProviderInterfaceVersion'>,
): SandboxProvider {
  return { sandboxProviderInterfaceVersion: SANDBOX_PROVIDER_INTERFACE_VERSION, ...provider };
}
