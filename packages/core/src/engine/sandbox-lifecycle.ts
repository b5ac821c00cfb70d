import type { SandboxSession } from '../plugins/sandbox-provider.ts';
import type { Preset } from '../presets/preset.ts';
import type { EmitOutcome, PendingEmitOutcome } from './emit-outcome.ts';
import type { EventRoute } from './engine-state.ts';
import type { RunFacts, SandboxLifecycle } from './sandbox-sessions.ts';

/** The engine parts the sandbox events need. */
export interface SandboxLifecycleParts {
  readonly preset: Preset;
  readonly routes: ReadonlyMap<string, EventRoute>;
  /** The engine's emit pipeline, for one of its own events whose sandboxed hooks run in `session`. */
  readonly emit: (
    route: EventRoute,
    context: Readonly<Record<string, unknown>>,
    session: SandboxSession,
  ) => Promise<PendingEmitOutcome>;
  /** Told the final outcome of every event the engine emits by itself. */
  readonly onOutcome: (outcome: EmitOutcome) => void;
}

/**
 * Emits the preset's sandbox events around a run's session (arc: `sandbox_ready` and
 * `sandbox_cleanup`). Their sandboxed hooks run in that very session. A `block` from the ready hooks
 * refuses the sandbox to the run's other hooks, with a reason naming the hook that blocked.
 */
export function sandboxLifecycle(parts: SandboxLifecycleParts): SandboxLifecycle | undefined {
  const events = parts.preset.sandboxEvents;
  if (events === undefined) return undefined;
  const emitFor = async (
    event: string,
    runId: string,
    session: SandboxSession,
    facts: RunFacts,
  ): Promise<PendingEmitOutcome | undefined> => {
    const route = parts.routes.get(event);
    if (route === undefined || route.hooks.length === 0) return undefined;
    const context = {
      [parts.preset.sessionField]: runId,
      ...facts,
      sandbox: { provider: session.provider, ...session.details },
    };
    const outcome = await parts.emit(route, context, session);
    void outcome.settled.then((settled) => {
      try {
        parts.onOutcome(settled);
      } catch {
        // A host callback that throws must not break the run's sandbox.
      }
    });
    return outcome;
  };
  return {
    async ready(runId, session, facts) {
      const outcome = await emitFor(events.ready, runId, session, facts);
      if (outcome?.decision !== 'block') return undefined;
      return `${events.ready} hook "${outcome.decided_by ?? '?'}" blocked the run's sandbox${outcome.reason === undefined ? '' : `: ${outcome.reason}`}`;
    },
    async cleanup(runId, session, facts) {
      const outcome = await emitFor(events.cleanup, runId, session, facts);
      await outcome?.settled;
    },
  };
}
