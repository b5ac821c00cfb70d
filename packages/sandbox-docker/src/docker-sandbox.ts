import {
  createInFlight,
  defineSandboxProvider,
  type ProtectedPathsSettings,
  type SandboxProvider,
} from '@hookline/core/plugin';
import { connectDocker, type DockerConnection } from './connect-docker.ts';
import { engineMessage, statusOf } from './docker-errors.ts';
import type { DockerSandboxCallbacks } from './docker-sandbox-events.ts';
import { createDockerSession, type DockerSandboxSession } from './docker-session.ts';
import { dockerSettingsTable, type DockerSettingsData } from './docker-settings.ts';
import { pruneContainers, type PruneReport } from './prune-containers.ts';
import { resolveDockerSettings } from './resolve-docker-settings.ts';
import { openRunSandbox, type RunSandbox } from './run-sandbox.ts';

/** Settings of {@link dockerSandbox}: the data of `[sandbox.docker]` plus, in code, callbacks. */
export interface DockerSandboxSettings extends DockerSettingsData, DockerSandboxCallbacks, ProtectedPathsSettings {}

/** The `docker` sandbox provider, with the pruning of leftovers as a method. */
export interface DockerSandboxProvider extends SandboxProvider {
  doOpen(runId: string, signal: AbortSignal): Promise<DockerSandboxSession>;
  doClose(): Promise<void>;
  /** Removes containers of Hookline processes that are gone (see {@link pruneDockerSandboxes}). */
  pruneOrphans(): Promise<PruneReport>;
}

/**
 * The `docker` sandbox provider: one hardened container per `run_id`, made on the run's
 * first sandboxed hook and reused by every later one (each hook is an exec in it), removed when the
 * run's session is disposed (`engine.endRun`) or the engine closes (`doClose` removes every container
 * no open session holds; a provider can serve several engines). Settings are validated here
 * (a {@link DockerSettingsError} lists every problem); nothing touches Docker until a run needs it.
 * At its first opening the provider removes containers left by Hookline processes that died.
 *
 * ```ts
 * const runners = [commandRunner()];
 * const engine = createHookEngine({ config, runners, sandbox: dockerSandbox({ image: 'alpine:3', mounts: ['./:/workspace:ro'] }) });
 * ```
 */
export function dockerSandbox(settings: DockerSandboxSettings = {}): DockerSandboxProvider {
  const { onReady, onCleanup, onWarning, protectedPaths = [], hiddenPaths = [], onWatch, ...data } = settings;
  const resolved = {
    ...resolveDockerSettings(data),
    protectedPaths,
    hiddenPaths,
    ...(onWatch === undefined ? {} : { onWatch }),
  };
  const callbacks: DockerSandboxCallbacks = {
    ...(onReady && { onReady }),
    ...(onCleanup && { onCleanup }),
    ...(onWarning && { onWarning }),
  };
  const runs = new Map<string, { readonly sandbox: Promise<RunSandbox>; handles: number }>();
  // Every container made and not yet removed, so close() removes even those of openings still in flight.
  const containers = new Set<string>();
  const openings = createInFlight();
  let connection: Promise<DockerConnection> | undefined;
  let pruned: Promise<unknown> | undefined;

  const connect = (): Promise<DockerConnection> => {
    connection ??= connectDocker(resolved.dockerHost).catch((error: unknown) => {
      connection = undefined;
      throw error;
    });
    return connection;
  };
  const pruneOrphans = async (): Promise<PruneReport> => {
    const report = await pruneContainers(await connect());
    if (report.removed.length > 0)
      onWarning?.(
        `removed ${report.removed.length} container(s) left by Hookline processes that are gone: ${report.removed.map((found) => found.name).join(', ')}`,
        undefined,
      );
    for (const failure of report.failed)
      onWarning?.(`could not remove leftover container ${failure.name}: ${failure.error}`, undefined);
    return report;
  };

  const open = async (runId: string, signal: AbortSignal): Promise<RunSandbox> => {
    const docker = await connect();
    // Once per provider, before its first container: leftovers of crashed processes go first.
    if (resolved.pruneOrphans)
      await (pruned ??= pruneOrphans().catch((error: unknown) =>
        onWarning?.(`pruning leftover containers failed: ${engineMessage(error)}`, undefined),
      ));
    signal.throwIfAborted();
    return openRunSandbox(
      {
        connection: docker,
        runId,
        settings: resolved,
        callbacks,
        track: (id) => containers.add(id),
        untrack: (id) => containers.delete(id),
      },
      signal,
    );
  };

  const doOpen = async (runId: string, signal: AbortSignal): Promise<DockerSandboxSession> => {
    signal.throwIfAborted();
    let entry = runs.get(runId);
    if (entry === undefined) {
      // Concurrent first uses of a run share this one opening, so a run never gets two containers.
      const created = { sandbox: open(runId, signal), handles: 0 };
      runs.set(runId, created);
      openings.track(created.sandbox).catch(() => {
        if (runs.get(runId) === created) runs.delete(runId);
      });
      entry = created;
    }
    const shared = entry;
    shared.handles++;
    let sandbox: RunSandbox;
    try {
      sandbox = await shared.sandbox;
    } catch (error) {
      shared.handles--;
      throw error;
    }
    return createDockerSession(runId, sandbox, async () => {
      shared.handles--;
      if (shared.handles > 0 || runs.get(runId) !== shared) return;
      runs.delete(runId);
      await sandbox.close();
    });
  };

  // The engine calls this when it closes, after disposing its sessions. A provider may serve several
  // engines (like a runner), so runs that another engine still holds stay; everything else goes, and
  // the provider stays usable.
  const doClose = async (): Promise<void> => {
    await openings.settled();
    const kept = new Set<string>();
    const idle: RunSandbox[] = [];
    for (const [runId, entry] of [...runs]) {
      const sandbox = await entry.sandbox.catch(() => undefined);
      if (sandbox === undefined) continue;
      if (entry.handles > 0) {
        kept.add(sandbox.info().containerId);
        continue;
      }
      runs.delete(runId);
      idle.push(sandbox);
    }
    await Promise.allSettled(idle.map((sandbox) => sandbox.close()));
    // Whatever else is tracked was made by an opening that failed half-way.
    const docker = await connection?.catch(() => undefined);
    if (docker === undefined) return;
    await Promise.allSettled(
      [...containers]
        .filter((id) => !kept.has(id))
        .map(async (id) => {
          try {
            await docker.docker.getContainer(id).remove({ force: true });
            containers.delete(id);
          } catch (error) {
            if (statusOf(error) === 404) containers.delete(id);
            else
              onWarning?.(
                `could not remove container ${id.slice(0, 12)}: ${engineMessage(error)}; remove it with \`docker rm -f ${id.slice(0, 12)}\``,
                undefined,
              );
          }
        }),
    );
  };

  return { ...defineSandboxProvider({ name: 'docker', doOpen, doClose }), doOpen, doClose, pruneOrphans };
}

/** `[sandbox.docker]`: the host validates it while loading the config and passes the result here. */
dockerSandbox.settingsTable = dockerSettingsTable;
