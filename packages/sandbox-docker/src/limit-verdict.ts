import { DockerExecError } from './docker-exec-error.ts';
import type { LimitCounters } from './limit-counters.ts';

/** The limit counters as last seen, to tell what a finished exec added. */
export interface CountedLimits {
  readonly oomKills: number;
  readonly pidsLimitHits: number;
}

/** The container's limits, for messages. */
export interface LimitSettings {
  readonly memoryBytes: number;
  readonly pids: number;
}

/** What the counters say about one exec that ended. */
export interface LimitVerdict {
  /** The counters to compare the next exec against. */
  readonly counted: CountedLimits;
  /** Set when a limit stopped the hook: the exec fails with it. */
  readonly error?: DockerExecError;
  /** Worth knowing, for the exec's warnings. */
  readonly notes: readonly string[];
}

/**
 * Reads the container's limit counters after an exec: an OOM kill or a refused fork since the last
 * look means the hook met the memory or pids limit, which the hook's report must say in so many
 * words (a bare exit code 137 or 2 would not). A stopped hook, whose report is already made, gets
 * notes instead. The counters are the container's, so with concurrent hooks of one run the first
 * exec to look after a hit is the one blamed — which is right for the hook that caused it and for a
 * neighbour whose own forks were refused.
 */
export function limitVerdict(
  before: CountedLimits,
  now: LimitCounters,
  settings: LimitSettings,
  exitCode: number | null,
  stopped: boolean,
): LimitVerdict {
  const counted = {
    oomKills: now.oomKills ?? before.oomKills,
    pidsLimitHits: now.pidsLimitHits ?? before.pidsLimitHits,
  };
  const oomKills = counted.oomKills - before.oomKills;
  const refused = counted.pidsLimitHits - before.pidsLimitHits;
  const memory = mebibytes(settings.memoryBytes);
  if (stopped) {
    const notes: string[] = [];
    if (refused > 0)
      notes.push(
        `before it was stopped, ${refused} fork(s) were refused at the container's limit of ${settings.pids} processes`,
      );
    if (oomKills > 0)
      notes.push(
        `before it was stopped, the OOM killer ended ${oomKills} process(es) at the container's limit of ${memory}`,
      );
    return { counted, notes };
  }
  if (oomKills > 0) {
    const message = `the hook ran out of memory: the kernel's OOM killer ended a process at the container's limit of ${memory} (exit code ${String(exitCode)}); raise [sandbox.docker] memory if the hook needs more`;
    return { counted, error: new DockerExecError('out_of_memory', message), notes: [] };
  }
  if (refused > 0) {
    const message =
      `the hook reached the container's limit of ${settings.pids} processes: ${refused} fork(s) were refused while it ran, so parts of it did not run ` +
      `(a fork bomb, or a hook that needs more: raise [sandbox.docker] pids); exit code ${String(exitCode)}`;
    return { counted, error: new DockerExecError('pids_limit', message), notes: [] };
  }
  if (exitCode === 137 && now.oomKills === undefined) {
    return {
      counted,
      notes: [
        `exit code 137 is SIGKILL; the container's OOM counter cannot be read on this engine, so whether the ${memory} memory limit was hit is unknown`,
      ],
    };
  }
  return { counted, notes: [] };
}

function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
