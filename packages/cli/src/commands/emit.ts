import process from 'node:process';
import { presets } from '@hookline/core';
import type { Command } from '../command.ts';
import { loadSetup } from '../config/load-setup.ts';
import { buildContext } from '../context/build-context.ts';
import { contextDefaultsHelp } from '../context/context-defaults-help.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { journalPath } from '../journal/journal-path.ts';
import { onShutdownSignal, signalExitCode } from '../on-shutdown-signal.ts';
import type { LiveStatus } from '../output/live-status.ts';
import { reportInternalEmit } from '../output/report-internal-emit.ts';
import { createStyle } from '../output/style.ts';
import { configOption, PRESET_HELP, expectPositionals, helpOption, parseCommandArgs } from '../parse-command-args.ts';
import { printSetupWarnings, printWarnings } from '../print-warnings.ts';

const options = {
  ...configOption,
  ...helpOption,
  context: { type: 'string' },
  set: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  journal: { type: 'string' },
} as const;

const help = `Usage: hookline emit <event> [--context FILE|-] [--set key=value]... [--config FILE]... [--journal FILE] [--json]

Runs the hooks of <event> and prints the merged outcome. Waits for non-blocking hooks too.
Exit code: 0, or 2 when the decision is block (1 for errors).

Options:
  --context FILE|-    the event's context: a JSON object in FILE, or on stdin with -
  --set key=value     set a top-level context field (repeatable, applied after --context).
                      A field is read by the type its preset documents: text as is,
                      integers as whole numbers, objects and arrays as JSON (quote it:
                      --set 'tool_input={"command":"ls"}'); fields the preset does not
                      document are JSON when the value parses (3, true, {"a":1}), else text.
  -c, --config FILE   config file to load (repeatable, in layering order). Default: the
                      user layer $XDG_CONFIG_HOME/hookline/hookline.toml, then ./hookline.toml
${PRESET_HELP}
  --journal FILE      where durable hooks are journaled (default $HOOKLINE_JOURNAL, else
                      .hookline/journal.db); used only when the config has durable hooks
  --json              print the outcome as JSON (one line) and nothing else on stdout
  -h, --help          show this help

Missing required context fields are filled in per preset:
${contextDefaultsHelp()}

With durable hooks, durable hooks a killed hookline left in the journal run again first (reported
on stderr), alongside the event.

Examples:
  hookline emit stage_start --set node_id=deploy
  hookline emit edge_selected --set edge_from=test --set edge_to=deploy --json
  hookline emit after_merge --set task=t-42 --set branch=work/t-42     (preset = "task")
  hookline emit pre_tool_use --set tool_name=Bash                      (preset = "agent")
  hookline emit PreToolUse --config .claude/settings.json --context input.json   (Claude Code hooks)
  echo '{"run_id":"r1","workflow_name":"ship","node_id":"build"}' | hookline emit stage_start --context -
`;

/** `hookline emit`: one event, its hooks run, the settled outcome printed (SPEC §13, §6). */
export const emitCommand: Command = {
  help,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('emit', args, options);
    if (values.help === true) {
      io.stdout.write(help);
      return 0;
    }
    expectPositionals('emit', positionals, ['event']);
    const event = positionals[0]!;
    const setup = await loadSetup({ configFiles: values.config, preset: values.preset, cwd: io.cwd, env: io.env, runsHooks: true });
    const preset = presets[setup.config.preset]!;
    const built = await buildContext({ file: values.context, sets: values.set }, preset, io);
    printSetupWarnings(setup, io, built.warnings);

    const json = values.json === true;
    // The human output's modules load only for human output: --json is the scripted, hot path.
    const live: LiveStatus | undefined =
      !json && io.quiet !== true && io.stderr.isTTY === true ? (await import('../output/live-status.ts')).createLiveStatus(io.stderr, createStyle(io.stderr, io.env)) : undefined;
    const { engine, resumed } = await createCliEngine(setup, {
      io,
      journalPath: journalPath(values.journal, io),
      observer: live,
      onInternalEmit: (outcome) => reportInternalEmit(outcome, io, !json),
    });
    const stopListening = onShutdownSignal((signal) => {
      live?.stop();
      // Aborts the hooks (killing their process groups), releases their journal entries and disposes
      // sessions; then says which resumed entries were left pending, and exits.
      void engine
        .close()
        .then(resumed)
        .finally(() => process.exit(signalExitCode(signal)));
    });
    try {
      const pending = await engine.emit(event, built.context);
      // SPEC §5.3: the CLI waits for the non-blocking hooks and prints the settled outcome.
      const outcome = await pending.settled;
      live?.stop();
      if (json) {
        io.stdout.write(`${JSON.stringify(outcome)}\n`);
      } else if (io.quiet !== true) {
        const { formatOutcome } = await import('../output/format-outcome.ts');
        io.stdout.write(`${formatOutcome(outcome, createStyle(io.stdout, io.env))}\n`);
        printWarnings(outcome.warnings, io);
      }
      // The durable hooks resumed at start have run (or failed) before the process may end.
      await resumed();
      return outcome.decision === 'block' ? 2 : 0;
    } finally {
      // On an error too, resumed hooks finish rather than being cut off by close(); the live line
      // keeps showing them until then.
      await resumed().catch(() => undefined);
      live?.stop();
      await engine.close();
      stopListening();
    }
  },
};
