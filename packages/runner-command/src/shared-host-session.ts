import type { SandboxSession } from '@hookline/core/plugin';
import { createHostSession, type HostSessionSettings } from './host-session.ts';

/** One host session shared by every unsandboxed hook of a runner, made on first use. */
export interface SharedHostSession {
  /** Runs `work` with the session, which stays open at least until `work` settles. */
  use<T>(work: (session: SandboxSession) => Promise<T>): Promise<T>;
  /**
   * Disposes the session once no `use` is in progress — right away, or when the last one ends. A
   * later `use` opens a fresh session.
   */
  close(): Promise<void>;
}

/**
 * Shares a host session between the runs of one runner. A runner may serve several engines, and
 * closing one engine must not end another engine's hooks or remove its context files, so disposal
 * waits until nothing uses the session; constructing does no I/O.
 */
export function createSharedHostSession(settings: HostSessionSettings): SharedHostSession {
  let session: SandboxSession | undefined;
  let users = 0;
  let closeRequested = false;
  const retire = async (): Promise<void> => {
    closeRequested = false;
    const retired = session;
    session = undefined;
    await retired?.dispose();
  };
  return {
    async use(work) {
      session ??= createHostSession(settings);
      users++;
      try {
        return await work(session);
      } finally {
        users--;
        if (closeRequested && users === 0) void retire().catch(() => undefined);
      }
    },
    async close() {
      closeRequested = true;
      if (users === 0) await retire();
    },
  };
}
