import type { EmitOutcome, HookEngine } from '@hookline/core';
import type { HookAnswer } from '@hookline/serve';
import { isGuardEvent } from './guard-event.ts';

/**
 * An emit's answer as `hookline emit --json` gives it: the outcome line, exit 2 on block. The
 * daemon answers after the blocking phase; `track` gets the non-blocking hooks' settling, which a
 * stop waits for.
 */
export async function emitAnswer(
  engine: HookEngine,
  event: string,
  payload: Readonly<Record<string, unknown>>,
  notice: string | undefined,
  track: (settled: Promise<unknown>) => void,
): Promise<HookAnswer> {
  const pending = await engine.emit(event, { ...payload });
  track(pending.settled);
  const outcome: EmitOutcome =
    notice === undefined
      ? pending
      : {
          ...pending,
          system_messages: [...(pending.system_messages ?? []), notice],
          warnings: [...pending.warnings, notice],
        };
  return { exitCode: outcome.decision === 'block' ? 2 : 0, stdout: `${JSON.stringify(outcome)}\n`, stderr: '' };
}

/** The emit answer when no hook may run: block for a guard event, else proceed with the reason as a warning. */
export function refusedEmitAnswer(event: string, preset: string | undefined, reason: string): HookAnswer {
  const guard = isGuardEvent(event, preset);
  const outcome = guard
    ? { event, decision: 'block', reason, hooks: [], warnings: [reason] }
    : { event, decision: 'proceed', hooks: [], warnings: [reason], system_messages: [reason] };
  return { exitCode: guard ? 2 : 0, stdout: `${JSON.stringify(outcome)}\n`, stderr: guard ? `${reason}\n` : '' };
}
