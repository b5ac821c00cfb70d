import { closeSync, fchmodSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm } from './promised-fs.ts';
import { basename, dirname, join } from 'node:path';
import {
  createInFlight,
  HooklineError,
  PluginError,
  type ExecRequest,
  type ExecResult,
  type SandboxSession,
} from '@hookline/core/plugin';
import { CommandStartError } from './command-start-error.ts';
import { linkSignals } from './link-signals.ts';
import { makePrivateDirectory, privateDirectoryRoots } from './private-directory.ts';
import { runProcess } from './run-process.ts';

/** What a wrapping sandbox makes of one exec: what to spawn, and what to do once it ended. */
export interface ProcessLaunch {
  /** The request to spawn (an argv `command` runs directly), its `cwd` a host path. */
  readonly request: ExecRequest;
  /** Ends {@link ProcessSessionSettings.terminate}'s way; the session's when absent. */
  readonly terminate?: (pid: number, graceMs: number) => Promise<void>;
  /** Descriptors to pass as fds 3, 4, …; see `ProcessSettings.passFds`. */
  readonly passFds?: readonly number[];
  /**
   * Runs after the process ended (or failed to start), e.g. to free what the launch made; may add
   * warnings, or reject to fail the exec (a sandbox that found a hook changed what it must not).
   */
  finish?(result: ExecResult | undefined): Promise<ExecResult | undefined>;
}

/** What distinguishes one process session from another: the environment its processes start from. */
export interface ProcessSessionSettings {
  readonly runId: string;
  /** Named in reports: `local` for the local sandbox, `host` for `sandbox = false`. */
  readonly provider: string;
  /** The base environment, computed at every exec so the host's current environment is used. */
  readonly environment: () => Readonly<Record<string, string>>;
  readonly killGraceMs: number;
  readonly maxOutputBytes: number;
  /** Where the session's private directory is made; see {@link privateDirectoryRoots} for the default. */
  readonly temporaryDirectory?: string;
  /** Details for the sandbox events' hooks. */
  readonly details?: Readonly<Record<string, unknown>>;
  /**
   * Where processes see a file written with `writeFile`, given its host path; the host path when
   * absent. A sandbox with its own filesystem view (bubblewrap) maps it into its `/tmp`.
   */
  readonly visiblePath?: (hostPath: string) => string;
  /**
   * Wraps each exec (bubblewrap: `bwrap … -- sh -c command`), given the files written and not
   * removed, by their visible paths; execs run as asked when absent.
   */
  readonly launch?: (request: ExecRequest, files: ReadonlyMap<string, string>) => Promise<ProcessLaunch>;
}

/**
 * A session whose processes run on this machine, each in its own process group, through
 * {@link runProcess}. Files go to a private directory (mode 0700, made on first use, memory-backed
 * where the system has such a place); disposing ends every running process group and removes it.
 */
export function createProcessSession(settings: ProcessSessionSettings): SandboxSession {
  const lifetime = new AbortController();
  const running = createInFlight();
  let directory: Promise<string> | undefined;
  // The files written and not removed: host path by the path processes see.
  const files = new Map<string, string>();
  const visible = settings.visiblePath ?? ((hostPath: string) => hostPath);
  let disposing: Promise<void> | undefined;

  const privateDirectory = (): Promise<string> => {
    directory ??= makePrivateDirectory(privateDirectoryRoots(settings.temporaryDirectory)).catch((error: unknown) => {
      directory = undefined;
      throw error;
    });
    return directory;
  };

  const launchProcess = async (request: ExecRequest, signal: AbortSignal): Promise<ExecResult> => {
    const processSettings = {
      environment: settings.environment(),
      killGraceMs: settings.killGraceMs,
      maxOutputBytes: settings.maxOutputBytes,
    };
    if (settings.launch === undefined) return runProcess({ ...request, signal }, processSettings);
    const launch = await settings.launch(request, files);
    let result: ExecResult;
    try {
      result = await runProcess(
        { ...launch.request, signal },
        {
          ...processSettings,
          ...(launch.terminate === undefined ? {} : { terminate: launch.terminate }),
          ...(launch.passFds === undefined ? {} : { passFds: launch.passFds }),
        },
      );
    } catch (error) {
      // The launch is finished either way; the run's own failure is what the caller gets.
      await launch.finish?.(undefined);
      throw error;
    }
    return (await launch.finish?.(result)) ?? result;
  };

  return {
    runId: settings.runId,
    provider: settings.provider,
    ...(settings.details === undefined ? {} : { details: settings.details }),
    async exec(request) {
      if (lifetime.signal.aborted)
        throw new CommandStartError(`the ${settings.provider} session of run "${settings.runId}" was disposed`);
      const linked = linkSignals(request.signal, lifetime.signal);
      const work = launchProcess(request, linked.signal);
      try {
        return await running.track(work);
      } finally {
        linked.unlink();
      }
    },
    async writeFile(request) {
      if (lifetime.signal.aborted)
        throw new CommandStartError(`the ${settings.provider} session of run "${settings.runId}" was disposed`);
      if (
        request.name !== basename(request.name) ||
        request.name === '' ||
        request.name === '.' ||
        request.name === '..' ||
        request.name.includes('\0')
      ) {
        throw new PluginError(`writeFile takes a plain file name, got ${JSON.stringify(request.name)}`);
      }
      const mode = request.mode ?? 0o600;
      let path = join(await privateDirectory(), request.name);
      try {
        writePrivateFile(path, request.data, mode);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // The directory vanished (a temp cleaner removes idle directories of a long-lived host): make a new one.
        directory = undefined;
        path = join(await privateDirectory(), request.name);
        writePrivateFile(path, request.data, mode);
      }
      files.set(visible(path), path);
      return visible(path);
    },
    async removeFile(path) {
      const hostPath = files.get(path);
      if (hostPath === undefined) {
        if (directory !== undefined && dirname(path) === (await directory)) return;
        throw new PluginError(`removeFile removes only files written with writeFile, not ${JSON.stringify(path)}`);
      }
      files.delete(path);
      try {
        unlinkSync(hostPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    dispose() {
      disposing ??= (async () => {
        lifetime.abort(
          new HooklineError(
            'HOOKLINE_SESSION_DISPOSED',
            `the ${settings.provider} session of run "${settings.runId}" was disposed`,
          ),
        );
        await running.settled();
        const made = await directory?.catch(() => undefined);
        if (made !== undefined) await rm(made, { recursive: true, force: true });
      })();
      return disposing;
    },
  };
}

/**
 * Writes a small file synchronously: a context file is a few kilobytes in a private directory, and
 * four syscalls cost less than the thread-pool round trips of the promise API, which measurably
 * added to every hook (see the benchmark). `wx` never reuses or follows an existing path; the
 * explicit chmod restores bits the umask may have stripped from `mode`.
 */
function writePrivateFile(path: string, data: string | Uint8Array, mode: number): void {
  const descriptor = openSync(path, 'wx', mode);
  try {
    fchmodSync(descriptor, mode);
    writeFileSync(descriptor, data);
  } finally {
    closeSync(descriptor);
  }
}
