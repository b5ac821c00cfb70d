import type { EmitOutcome, HookEngine, PendingEmitOutcome } from '@hookline/core';
import { messageOf } from '@hookline/core';

/** The line to write for one input line, and — for an emitted event — what to track. */
export type Answer =
  | {
      readonly output: EmitOutcome;
      readonly emitted: PendingEmitOutcome;
      readonly sessionKey: string;
      readonly event: string;
    }
  | { readonly output: Record<string, unknown>; readonly emitted?: undefined };

/**
 * Emits the event of one `hookline run` input line. Everything wrong with the line itself (not JSON,
 * not an object, no event, an unknown event, a bad context) becomes an error line in its place, so
 * the host's n-th input line is always answered by the n-th output line.
 */
export async function answerLine(
  line: string,
  lineNumber: number,
  engine: HookEngine,
  waitForAll: boolean,
): Promise<Answer> {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (error) {
    return rejection(
      lineNumber,
      undefined,
      'HOOKLINE_CLI_BAD_INPUT',
      `not JSON (${(error as Error).message}); write one JSON object per line`,
    );
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return rejection(
      lineNumber,
      undefined,
      'HOOKLINE_CLI_BAD_INPUT',
      'each line must be a JSON object: {"event": "…", "run_id": "…", …}',
    );
  }
  const context = input as Record<string, unknown>;
  // A host's own payloads may name the event their way (Claude Code's `hook_event_name`).
  const alias = engine.preset.eventField;
  const event = context['event'] ?? (alias === undefined ? undefined : context[alias]);
  if (typeof event !== 'string' || event === '') {
    const either = alias === undefined ? '' : ` (or "${alias}")`;
    return rejection(
      lineNumber,
      undefined,
      'HOOKLINE_CLI_BAD_INPUT',
      `the object has no "event"${either} string; add "event": "<name>"`,
    );
  }
  try {
    const pending = await engine.emit(event, context);
    const output = waitForAll ? await pending.settled : pending;
    // The preset's session key (`run_id`, `task`, `session_id`): emit has checked it is there.
    return { output, emitted: pending, sessionKey: String(context[engine.preset.sessionField]), event };
  } catch (error) {
    const code =
      typeof (error as { code?: unknown }).code === 'string'
        ? (error as { code: string }).code
        : 'HOOKLINE_CLI_EMIT_FAILED';
    return rejection(lineNumber, event, code, messageOf(error));
  }
}

function rejection(line: number, event: string | undefined, code: string, message: string): Answer {
  return { output: { line, ...(event === undefined ? {} : { event }), error: { code, message } } };
}
