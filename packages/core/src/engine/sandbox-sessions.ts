import type { SandboxProvider, SandboxSession } from '../plugins/sandbox-provider.ts';

/** The open sandbox sessions of an engine, one per `run_id`. */
export interface SandboxSessions {
  /** The run's session, opening it on first use; concurrent first uses share one opening. */
  get(runId: string): Promise<SandboxSession>;
  /** Disposes the run's session, if one is open. */
  end(runId: string): Promise<void>;
  /** Disposes every session. */
  endAll(): Promise<void>;
}

/** Keeps sessions of `provider` by run. A failed opening is forgotten, so the next hook tries again. */
export function createSandboxSessions(provider: SandboxProvider, signal: AbortSignal): SandboxSessions {
  const sessions = new Map<string, Promise<SandboxSession>>();
  const end = async (runId: string): Promise<void> => {
    const session = sessions.get(runId);
    if (session === undefined) return;
    sessions.delete(runId);
    await session.then((opened) => opened.dispose(), () => undefined);
  };
  return {
    get(runId) {
      let session = sessions.get(runId);
      if (session === undefined) {
        session = provider.doOpen(runId, signal);
        sessions.set(runId, session);
        session.catch(() => {
          if (sessions.get(runId) === session) sessions.delete(runId);
        });
      }
      return session;
    },
    end,
    async endAll() {
      await Promise.allSettled([...sessions.keys()].map(end));
    },
  };
}
