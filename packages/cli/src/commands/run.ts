import { createInterface } from 'node:readline';
import { createInFlight, sessionEndEvents, type EmitOutcome, type HookEngine } from '@hookline/core';
import { answerLine } from '../stream/answer-line.ts';
import { boundAnswerLine, DEFAULT_MAX_LINE_BYTES, MIN_MAX_LINE_BYTES } from '../stream/bound-answer-line.ts';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';
import type { Command } from '../command.ts';
import { loadSetup } from '../config/load-setup.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { journalPath } from '../journal/journal-path.ts';
import { onShutdownSignal, signalExitCode } from '../on-shutdown-signal.ts';
import { reportInternalEmit } from '../output/report-internal-emit.ts';
import { configOption, PRESET_HELP, expectPositionals, helpOption, parseCommandArgs } from '../parse-command-args.ts';
import { printSetupWarnings, printWarnings } from '../print-warnings.ts';
import { createRunSessions } from '../stream/run-sessions.ts';

const options = { ...configOption, ...helpOption, settled: { type: 'boolean' }, journal: { type: 'string' }, 'max-line-bytes': { type: 'string' } } as const;

const help = `Usage: hookline run [--config FILE]... [--journal FILE] [--settled] [--max-line-bytes N]

Reads events as JSON lines on stdin — {"event": "stage_start", "run_id": "r1", "workflow_name": "ship", …}
— and writes one outcome line (SPEC §6 JSON) per event to stdout, in order. Events are handled one
at a time, like a host that waits for each decision. Empty lines are ignored. Under preset claude a
line may name its event in "hook_event_name" instead: Claude Code's hook inputs work as they are.

Each session key (run_id for preset arc, task for task, session_id for agent and claude) gets one
sandbox session, ended after the run's run_complete/run_failed (arc), session_stop (agent) or
SessionEnd (claude) once its hooks
are done; task sessions end at exit. A line that cannot be emitted (not JSON, no "event", unknown
event, missing run_id…) gets an error line instead: {"line": 3, "event": "…", "error": {"code": "…",
"message": "…"}}; the rest go on, and the exit code is then 1. Nothing is filled in: a host names its runs.

With durable hooks, durable hooks a killed hookline left in the journal run again at start, alongside
the input; what they did goes to stderr, never to stdout.

At end of input the CLI answers every event read, waits for non-blocking hooks still running (and the
resumed ones), disposes the sessions and exits 0. SIGINT/SIGTERM abort hooks in flight (killing their
process groups), release their journal entries, dispose the sessions and exit 130/143.

Options:
  --settled           write each outcome once its non-blocking hooks are done too, instead of
                      as soon as the decision is known (their status is then "pending")
  -c, --config FILE   config file to load (repeatable, in layering order)
${PRESET_HELP}
  --journal FILE      where durable hooks are journaled (default $HOOKLINE_JOURNAL, else
                      .hookline/journal.db); used only when the config has durable hooks
  --max-line-bytes N  the longest outcome line (default ${DEFAULT_MAX_LINE_BYTES}); a longer one has its
                      long texts cut and "truncated": true, and stays valid JSON
  -h, --help          show this help

Example:
  printf '%s\\n' '{"event":"run_start","run_id":"r1","workflow_name":"ship"}' | hookline run
`;

/** `hookline run`: a long-lived engine fed by JSON lines (SPEC §13). */
export const runCommand: Command = {
  help,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('run', args, options);
    if (values.help === true) {
      io.stdout.write(help);
      return 0;
    }
    expectPositionals('run', positionals, []);
    const maxLineBytes = parseMaxLineBytes(values['max-line-bytes']);
    const setup = await loadSetup({ configFiles: values.config, preset: values.preset, cwd: io.cwd, env: io.env, runsHooks: true });
    printSetupWarnings(setup, io);
    const { engine, resumed } = await createCliEngine(setup, {
      io,
      journalPath: journalPath(values.journal, io),
      onInternalEmit: (outcome) => reportInternalEmit(outcome, io, false),
    });
    const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
    let stoppedBy: NodeJS.Signals | undefined;
    const stopListening = onShutdownSignal((signal) => {
      stoppedBy = signal;
      lines.close();
      // Ends the stream too, so nothing is left waiting on stdin.
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      void engine.close();
    });
    try {
      const rejected = await answerLines(lines, engine, io, { waitForAll: values.settled === true, maxLineBytes }, () => stoppedBy !== undefined);
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
};

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
  let lineNumber = 0;
  let rejected = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    if (stopped()) break;
    const answer = await answerLine(line, lineNumber, engine, waitForAll);
    io.stdout.write(`${boundAnswerLine(answer.output, maxLineBytes)}\n`);
    if (answer.settled === undefined) {
      rejected += 1;
      continue;
    }
    const answeredLine = lineNumber;
    running.track(
      answer.settled.then((final) => {
        if (!waitForAll) reportLateFailures(answer.output as EmitOutcome, final, answeredLine, io);
      }),
    );
    sessions.add(answer.sessionKey, answer.event, answer.settled);
  }
  // End of input: every event was answered; let the non-blocking hooks finish (each is bounded by its
  // timeout_ms), then end the sessions. The caller closes the engine.
  if (!stopped()) await running.settled();
  await sessions.drain();
  return rejected;
}

// The line for an event went out before its non-blocking hooks ended; a failure among them must
// still not pass silently (SPEC §6), so it is reported on stderr.
function reportLateFailures(sent: EmitOutcome, final: EmitOutcome, lineNumber: number, io: CliIo): void {
  const warnings = final.hooks
    .filter((hook, index) => sent.hooks[index]?.status === 'pending' && (hook.status === 'failed' || hook.status === 'timed_out'))
    .map((hook) => `line ${lineNumber} (${final.event}): non-blocking hook "${hook.name}" ${hook.status === 'timed_out' ? 'timed out' : 'failed'}: ${hook.error ?? ''}`);
  printWarnings(warnings, io);
}

function parseMaxLineBytes(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_LINE_BYTES;
  const bytes = Number(text);
  if (!Number.isSafeInteger(bytes) || bytes < MIN_MAX_LINE_BYTES) {
    throw new CliError('HOOKLINE_CLI_USAGE', `--max-line-bytes must be a whole number of bytes, at least ${MIN_MAX_LINE_BYTES}; got "${text}"`);
  }
  return bytes;
}
