import { messageOf } from '@hookline/core/plugin';
import type { DockerConnection } from './connect-docker.ts';
import { describeContainerStop } from './describe-container-stop.ts';
import { engineMessage, statusOf } from './docker-errors.ts';
import { DockerContainerError } from './docker-container-error.ts';
import { DockerExecError } from './docker-exec-error.ts';
import type { DockerSandboxCallbacks, DockerSandboxInfo } from './docker-sandbox-events.ts';
import type { ResolvedDockerSettings } from './resolve-docker-settings.ts';
import { runContainer, type RunContainer } from './run-container.ts';

/** What keeping a run's container needs. */
export interface ContainerKeeperScope {
  readonly connection: DockerConnection;
  readonly runId: string;
  readonly settings: ResolvedDockerSettings;
  readonly callbacks: DockerSandboxCallbacks;
  /** Told of every container made for the run as soon as it exists, and of every one removed. */
  readonly track: (id: string) => void;
  readonly untrack: (id: string) => void;
  /** Brings a replacement up to date (the run's files) before anything uses it. */
  readonly prepare: (container: RunContainer) => Promise<void>;
  /** Aborted when the run's sandbox closes: a replacement in progress is given up. */
  readonly signal: AbortSignal;
}

/** The run's current container, replaced when it dies (once) or must be restarted. */
export interface ContainerKeeper {
  /** The container to use now: waits for a replacement, and replaces a dead one, saying so in `notes`. */
  current(notes?: string[]): Promise<RunContainer>;
  /** The container as last known, without waiting (for removal and descriptions). */
  latest(): RunContainer;
  /**
   * Replaces `expected` unless that already happened: `died` when it stopped on its own — allowed
   * once per run, since a second death means the image or the engine is at fault — else a deliberate
   * restart (processes that could not be killed). Later uses fail with the reason if it cannot be done.
   */
  replace(expected: RunContainer, reason: string, died: boolean): Promise<void>;
  /** Bumped by every replacement, so an exec can tell that its container went away under it. */
  readonly generation: number;
  info(): DockerSandboxInfo;
  readonly warnings: readonly string[];
  warn(message: string): void;
  /** Removes the current container; later uses fail. */
  close(): Promise<void>;
}

/** Keeps `first` as the run's container, and its replacements after it. */
export function createContainerKeeper(scope: ContainerKeeperScope, first: RunContainer): ContainerKeeper {
  const { runId, settings, callbacks } = scope;
  let box = first;
  let generation = 0;
  let replaced = 0;
  let deaths = 0;
  let broken: Error | undefined;
  let replacing: Promise<void> | undefined;
  let closed = false;
  const warnings: string[] = [];

  const info = (): DockerSandboxInfo => ({
    runId,
    containerId: box.id,
    containerName: box.name,
    image: settings.image,
    replaced,
  });
  const warn = (message: string): void => {
    warnings.push(message);
    callbacks.onWarning?.(message, runId);
  };
  const remove = async (old: RunContainer): Promise<void> => {
    old.agent.close();
    try {
      await old.container.remove({ force: true });
    } catch (error) {
      if (statusOf(error) !== 404) {
        warn(
          `could not remove container ${old.name}: ${engineMessage(error)}; remove it with \`docker rm -f ${old.name}\``,
        );
        return;
      }
    }
    scope.untrack(old.id);
  };

  const replace = (expected: RunContainer, reason: string, died: boolean): Promise<void> => {
    if (expected !== box) return replacing ?? Promise.resolve();
    replacing ??= (async () => {
      if (died && deaths >= 1) {
        broken = new DockerExecError(
          'container',
          `the container of run "${runId}" stopped again after it was replaced once (${reason}); later hooks of this run fail: check the image and the engine's log`,
        );
        throw broken;
      }
      if (died) deaths++;
      await remove(box);
      try {
        const next = await runContainer(scope.connection, runId, settings, scope.signal, scope.track);
        box = next;
        await scope.prepare(next);
      } catch (error) {
        broken = new DockerExecError(
          'container',
          `the container of run "${runId}" could not be replaced (${reason}): ${messageOf(error)}`,
          { cause: error },
        );
        throw broken;
      }
      generation++;
      replaced++;
      warn(
        `the container of run "${runId}" ${died ? 'stopped' : 'was restarted'} (${reason}); it was replaced by ${box.name}`,
      );
      try {
        await callbacks.onReady?.(info());
      } catch (error) {
        broken = error instanceof Error ? error : new DockerContainerError(String(error));
        throw broken;
      }
    })().finally(() => {
      replacing = undefined;
    });
    return replacing;
  };

  return {
    async current(notes) {
      for (;;) {
        if (closed) throw new DockerExecError('disposed', `the docker session of run "${runId}" was disposed`);
        if (broken !== undefined) throw broken;
        if (replacing !== undefined) {
          await replacing.catch(() => undefined);
          continue;
        }
        if (!box.agent.isEnded) return box;
        const dead = box;
        const reason = await describeContainerStop(dead.container);
        await replace(dead, reason, true);
        notes?.push(`the run's container had stopped (${reason}); this hook ran in a replacement, ${box.name}`);
      }
    },
    latest: () => box,
    replace,
    get generation() {
      return generation;
    },
    info,
    warnings,
    warn,
    async close() {
      closed = true;
      await replacing?.catch(() => undefined);
      await remove(box);
    },
  };
}
