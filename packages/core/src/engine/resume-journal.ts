import { checkContext } from '../context/normalize-context.ts';
import type { JournalEntry } from '../plugins/journal.ts';
import type { Durability } from './durable-entries.ts';
import type { EmitOutcome } from './emit-outcome.ts';
import type { EngineState } from './engine-state.ts';
import { ENGINE_CLOSED_MEANWHILE, runEmit } from './run-emit.ts';
import { messageOf } from '../errors/message-of.ts';

/** What `engine.resume()` did with the journal's pending entries. */
export interface ResumeReport {
  /**
   * Entries whose durable hooks ran, each with the settled outcome of that run (its `warnings` say
   * which hooks failed). They were cleared unless a warning says otherwise.
   */
  readonly ran: ReadonlyArray<{ readonly entry: JournalEntry; readonly outcome: EmitOutcome }>;
  /** Entries left pending, and why: the engine closed while they ran, or they are not this engine's to run. */
  readonly pending: ReadonlyArray<{ readonly entry: JournalEntry; readonly error: string }>;
}

// An entry of an event this engine cannot run waits this long before it is offered again, so that a
// resume gets on with the rest (another engine sharing the journal may know the event).
const FOREIGN_ENTRY_RETRY_MS = 60_000;

/**
 * Claims the journal's pending entries with `workers` loops at once and runs each through the emit
 * pipeline as a resumed emit: the event's durable hooks that the current config selects for the
 * stored context (a config edited since runs as edited), then the entry is cleared, or released when
 * the engine closed meanwhile. Rejects when the journal cannot be read.
 */
export async function resumeJournal(engine: EngineState, durability: Durability, workers: number): Promise<ResumeReport> {
  const { preset } = engine;
  const ran: Array<ResumeReport['ran'][number]> = [];
  const pending: Array<ResumeReport['pending'][number]> = [];
  let failure: { error: unknown } | undefined;
  const work = async (): Promise<void> => {
    while (failure === undefined && !engine.hostHooks.signal.aborted) {
      let held;
      try {
        held = await durability.claim();
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (held?.entry === undefined) return;
      const entry = held.entry;
      const route = entry.preset === preset.name ? engine.routes.get(entry.event) : undefined;
      let refusal = route === undefined ? `event "${entry.event}" of preset "${entry.preset}" is not in this engine's catalog (preset "${preset.name}")` : undefined;
      if (refusal === undefined) {
        try {
          checkContext(entry.event, entry.context, preset);
        } catch (error) {
          refusal = messageOf(error);
        }
      }
      if (refusal !== undefined) {
        await held.release(refusal, FOREIGN_ENTRY_RETRY_MS);
        pending.push({ entry, error: refusal });
        continue;
      }
      const outcome = await (await runEmit(engine, route!, entry.context, { resumed: held })).settled;
      if (engine.hostHooks.signal.aborted) pending.push({ entry, error: ENGINE_CLOSED_MEANWHILE });
      else ran.push({ entry, outcome });
    }
  };
  await Promise.all(Array.from({ length: workers }, work));
  if (failure !== undefined) throw failure.error;
  return { ran, pending };
}
