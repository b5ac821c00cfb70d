import type { DockerConnection } from './connect-docker.ts';
import { engineMessage, statusOf } from './docker-errors.ts';
import { LABELS, SANDBOX_MARKER } from './labels.ts';
import { ownerState } from './owner-identity.ts';

/** One labelled container, as pruning saw it. */
export interface SandboxContainer {
  readonly id: string;
  readonly name: string;
  readonly runId: string;
  /** `pid@host` of the process that created it. */
  readonly owner: string;
  /** `gone`: its owner is dead; `alive`: in use; `unknown`: another machine's, or unlabelled owner. */
  readonly ownerState: 'alive' | 'gone' | 'unknown';
}

/** What pruning did. */
export interface PruneReport {
  readonly removed: readonly SandboxContainer[];
  /** Containers left alone: their owner is alive, or cannot be checked from this machine. */
  readonly kept: readonly SandboxContainer[];
  readonly failed: ReadonlyArray<SandboxContainer & { readonly error: string }>;
}

/** Options of pruning. */
export interface PruneOptions {
  /**
   * Also remove containers whose owner ran on another machine (an engine shared over `DOCKER_HOST`);
   * their owner cannot be checked from here, so they are kept unless this is set.
   */
  readonly includeOtherHosts?: boolean;
}

/**
 * Removes the docker sandbox's containers whose owner process is gone: on this machine and boot,
 * the process no longer exists (or its id was reused); or it ran on a previous boot of this machine.
 */
export async function pruneContainers(connection: DockerConnection, options: PruneOptions = {}): Promise<PruneReport> {
  const listed = await connection.docker.listContainers({
    all: true,
    filters: { label: [`${LABELS.sandbox}=${SANDBOX_MARKER}`] },
  });
  const removed: SandboxContainer[] = [];
  const kept: SandboxContainer[] = [];
  const failed: Array<SandboxContainer & { error: string }> = [];
  await Promise.all(
    listed.map(async (listing) => {
      const labels = listing.Labels ?? {};
      const state = ownerState(labels);
      const container: SandboxContainer = {
        id: listing.Id,
        name: (listing.Names?.[0] ?? listing.Id).replace(/^\//, ''),
        runId: labels[LABELS.runId] ?? '',
        owner: `${labels[LABELS.ownerPid] ?? '?'}@${labels[LABELS.ownerHost] ?? '?'}`,
        ownerState: state,
      };
      if (state === 'alive' || (state === 'unknown' && options.includeOtherHosts !== true)) {
        kept.push(container);
        return;
      }
      try {
        await connection.docker.getContainer(listing.Id).remove({ force: true });
        removed.push(container);
      } catch (error) {
        // Removed meanwhile (by another pruner, or its owner's late cleanup): the goal is met.
        if (statusOf(error) === 404) removed.push(container);
        else failed.push({ ...container, error: engineMessage(error) });
      }
    }),
  );
  return { removed, kept, failed };
}
