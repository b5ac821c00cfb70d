import type { SandboxProvider, SandboxSession } from '../plugins/sandbox-provider.ts';
import { SandboxRefusedError } from '../errors/sandbox-refused-error.ts';

/**
 * What the engine knows of a run when its sandbox opens: the context fields its sandbox events carry
 * (`cwd` and the preset's `sandboxEvents.carries`), taken from the emit that opened it.
 */
export type RunFacts = Readonly<Record<string, unknown>>;

/** Hooks around a session's life: the `sandbox_ready` and `sandbox_cleanup` events. */
export interface SandboxLifecycle {
  /** Runs after the session opened; resolves to a reason when the run's sandbox must not be used. */
  ready(runId: string, session: SandboxSession, facts: RunFacts): Promise<string | undefined>;
  /** Runs before the session is disposed. */
  cleanup(runId: string, session: SandboxSession, facts: RunFacts): Promise<void>;
}

/** Where a run's sandboxed hooks execute. */
export interface SessionSource {
  /** The run's session, ready for hooks. */
  get(runId: string, facts: RunFacts): Promise<SandboxSession>;
}

/** The open sandbox sessions of an engine, one per `run_id`. */
export interface SandboxSessions extends SessionSource {
  /** Cleans up and disposes the run's session, if one is open, and forgets that it was blocked. */
  end(runId: string): Promise<void>;
  /** Ends every session. */
  endAll(): Promise<void>;
}

interface OpenRun {
  readonly facts: RunFacts;
  /** The provider's session, before the ready hooks ran. */
  readonly opening: Promise<SandboxSession>;
  /** The session once the ready hooks let it be used. */
  readonly usable: Promise<SandboxSession>;
}

/**
 * Keeps sessions of `provider` by run. Concurrent first uses share one opening and one run of the
 * ready hooks. A failed opening is forgotten, so the next hook tries again; a run whose ready hooks
 * blocked keeps failing with their reason until the run ends, and its session is disposed at once.
 */
export function createSandboxSessions(
  provider: SandboxProvider,
  signal: AbortSignal,
  lifecycle?: SandboxLifecycle,
): SandboxSessions {
  const runs = new Map<string, OpenRun>();
  const blocked = new Map<string, string>();

  const close = async (runId: string): Promise<void> => {
    const run = runs.get(runId);
    if (run === undefined) return;
    runs.delete(runId);
    let session: SandboxSession;
    try {
      session = await run.opening;
    } catch {
      return;
    }
    try {
      await lifecycle?.cleanup(runId, session, run.facts);
    } finally {
      await session.dispose();
    }
  };

  return {
    get(runId, facts) {
      const reason = blocked.get(runId);
      if (reason !== undefined) return Promise.reject(new SandboxRefusedError(reason));
      const known = runs.get(runId);
      if (known !== undefined) return known.usable;
      const opening = provider.doOpen(runId, signal);
      const usable = opening.then(async (session) => {
        const refusal = await lifecycle?.ready(runId, session, facts);
        if (refusal === undefined) return session;
        blocked.set(runId, refusal);
        await close(runId);
        throw new SandboxRefusedError(refusal);
      });
      const run: OpenRun = { facts, opening, usable };
      runs.set(runId, run);
      usable.catch(() => {
        if (runs.get(runId) === run) runs.delete(runId);
      });
      return usable;
    },
    async end(runId) {
      blocked.delete(runId);
      await close(runId);
    },
    async endAll() {
      blocked.clear();
      await Promise.allSettled([...runs.keys()].map(close));
    },
  };
}
