import { closeSync, fchmodSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PluginError, type ExecResult, type SandboxSession } from '@hookline/core';
import { CommandStartError } from './command-start-error.ts';
import { linkSignals } from './link-signals.ts';
import { makePrivateDirectory, privateDirectoryRoots } from './private-directory.ts';
import { runProcess } from './run-process.ts';

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
}

/**
 * A session whose processes run on this machine, each in its own process group, through
 * {@link runProcess}. Files go to a private directory (mode 0700, made on first use, memory-backed
 * where the system has such a place); disposing ends every running process group and removes it.
 */
export function createProcessSession(settings: ProcessSessionSettings): SandboxSession {
  const lifetime = new AbortController();
  const running = new Set<Promise<ExecResult>>();
  let directory: Promise<string> | undefined;
  let disposing: Promise<void> | undefined;

  const privateDirectory = (): Promise<string> => {
    directory ??= makePrivateDirectory(privateDirectoryRoots(settings.temporaryDirectory)).catch((error: unknown) => {
      directory = undefined;
      throw error;
    });
    return directory;
  };

  return {
    runId: settings.runId,
    provider: settings.provider,
    async exec(request) {
      if (lifetime.signal.aborted) throw new CommandStartError(`the ${settings.provider} session of run "${settings.runId}" was disposed`);
      const linked = linkSignals(request.signal, lifetime.signal);
      const work = runProcess(
        { ...request, signal: linked.signal },
        { environment: settings.environment(), killGraceMs: settings.killGraceMs, maxOutputBytes: settings.maxOutputBytes },
      );
      running.add(work);
      try {
        return await work;
      } finally {
        running.delete(work);
        linked.unlink();
      }
    },
    async writeFile(request) {
      if (lifetime.signal.aborted) throw new CommandStartError(`the ${settings.provider} session of run "${settings.runId}" was disposed`);
      if (request.name !== basename(request.name) || request.name === '' || request.name === '.' || request.name === '..' || request.name.includes('\0')) {
        throw new PluginError(`writeFile takes a plain file name, got ${JSON.stringify(request.name)}`);
      }
      const mode = request.mode ?? 0o600;
      const path = join(await privateDirectory(), request.name);
      try {
        writePrivateFile(path, request.data, mode);
        return path;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      // The directory vanished (a temp cleaner removes idle directories of a long-lived host): make a new one.
      directory = undefined;
      const retried = join(await privateDirectory(), request.name);
      writePrivateFile(retried, request.data, mode);
      return retried;
    },
    async removeFile(path) {
      if (directory === undefined || dirname(path) !== (await directory)) {
        throw new PluginError(`removeFile removes only files written with writeFile, not ${JSON.stringify(path)}`);
      }
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    dispose() {
      disposing ??= (async () => {
        lifetime.abort(new Error(`the ${settings.provider} session of run "${settings.runId}" was disposed`));
        await Promise.allSettled([...running]);
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
