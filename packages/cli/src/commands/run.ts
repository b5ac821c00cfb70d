import { sessionEndEvents, type EmitOutcome, type HookEngine } from '@hookline/core';
import { createInFlight } from '@hookline/core/plugin';
import { answerLine } from '../stream/answer-line.ts';
import { boundAnswerLine } from '../stream/bound-answer-line.ts';
import { DEFAULT_MAX_LINE_BYTES, MIN_MAX_LINE_BYTES } from '../stream/line-limits.ts';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';
import type { CommandModule } from '../command.ts';
import type { run } from '../command-specs.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { chooseJournal } from '../journal/journal-path.ts';
import { onShutdownSignal, signalExitCode } from '../on-shutdown-signal.ts';
import { reportInternalEmit } from '../output/report-internal-emit.ts';
import { printWarnings } from '../print-warnings.ts';
import { holdHeapSteady } from '../stream/hold-heap-steady.ts';
import { createLineWriter } from '../stream/line-writer.ts';
import { readLines } from '../stream/read-lines.ts';
import { createRunSessions } from '../stream/run-sessions.ts';

/** `hookline run`: a long-lived engine fed by JSON lines. */
export const runCommand = {
  async run({ values, setup }, io) {
    const maxLineBytes = parseMaxLineBytes(values['max-line-bytes']);
    holdHeapSteady();
    const { engine, resumed } = await createCliEngine(setup, {
      io,
      journal: chooseJournal(values.journal, io, setup.config),
      onInternalEmit: (outcome) => reportInternalEmit(outcome, io, false),
    });
    const lines = readLines(io.stdin);
    let stoppedBy: NodeJS.Signals | undefined;
    const stopListening = onShutdownSignal((signal) => {
      stoppedBy = signal;
      lines.close();
      // Ends the stream too, so nothing is left waiting on stdin.
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      void engine.close();
    });
    try {
      const rejected = await answerLines(
        lines,
        engine,
        io,
        { waitForAll: values.settled === true, maxLineBytes },
        () => stoppedBy !== undefined,
      );
      if (stoppedBy !== undefined) {
        // close() released the entries of the resumed hooks it stopped; the report says which.
        await engine.close();
        await resumed();
        return signalExitCode(stoppedBy);
      }
      await resumed();
      return rejected > 0 ? 1 : 0;
    } finally {
      await resumed().catch(() => undefined);
      await engine.close();
      stopListening();
    }
  },
} satisfies CommandModule<typeof run>;

async function answerLines(
  lines: AsyncIterable<string>,
  engine: HookEngine,
  io: CliIo,
  { waitForAll, maxLineBytes }: { readonly waitForAll: boolean; readonly maxLineBytes: number },
  stopped: () => boolean,
): Promise<number> {
  // Sessions are keyed by the preset's session field; endRun takes that key.
  const sessions = createRunSessions((key) => engine.endRun(key), sessionEndEvents(engine.preset));
  // What is still running, for end of input; settled emits leave, so a long stream stays small.
  const running = createInFlight();
  // Answers ready together go out in one write, before the process waits for anything.
  const output = createLineWriter(io.stdout);
  let lineNumber = 0;
  let rejected = 0;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      if (stopped()) break;
      const answer = await answerLine(line, lineNumber, engine, waitForAll);
      output.write(boundAnswerLine(answer.output, maxLineBytes));
      if (answer.emitted === undefined) {
        rejected += 1;
        continue;
      }
      // Most events have nothing left running once answered: nothing to track or report later.
      if (!answer.output.hooks.some((hook) => hook.status === 'pending')) {
        sessions.add(answer.sessionKey, answer.event, undefined);
        continue;
      }
      const answeredLine = lineNumber;
      const { settled } = answer.emitted;
      void running.track(
        settled.then((final) => {
          if (!waitForAll) reportLateFailures(answer.output, final, answeredLine, io);
        }),
      );
      sessions.add(answer.sessionKey, answer.event, settled);
    }
  } finally {
    output.flush();
  }
  // End of input: every event was answered; let the non-blocking hooks finish (each is bounded by its
  // timeout_ms), then end the sessions. The caller closes the engine.
  if (!stopped()) await running.settled();
  await sessions.drain();
  return rejected;
}

// The line for an event went out before its non-blocking hooks ended; a failure among them must
// still not pass silently, so it is reported on stderr.
function reportLateFailures(sent: EmitOutcome, final: EmitOutcome, lineNumber: number, io: CliIo): void {
  const warnings = final.hooks
    .filter(
      (hook, index) =>
        sent.hooks[index]?.status === 'pending' && (hook.status === 'failed' || hook.status === 'timed_out'),
    )
    .map(
      (hook) =>
        `line ${lineNumber} (${final.event}): non-blocking hook "${hook.name}" ${hook.status === 'timed_out' ? 'timed out' : 'failed'}: ${hook.error ?? ''}`,
    );
  printWarnings(warnings, io);
}

function parseMaxLineBytes(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_LINE_BYTES;
  const bytes = Number(text);
  if (!Number.isSafeInteger(bytes) || bytes < MIN_MAX_LINE_BYTES) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `--max-line-bytes must be a whole number of bytes, at least ${MIN_MAX_LINE_BYTES}; got "${text}"`,
    );
  }
  return bytes;
}
