import { createHookEngine, defineSandboxProvider, findEvent, presets, type HookSelection, type SandboxProvider } from '@hookline/core';
import type { Command } from '../command.ts';
import { disabledBy } from '../config/disabled-by.ts';
import { loadSetup } from '../config/load-setup.ts';
import { buildContext } from '../context/build-context.ts';
import { dryRunJournal } from '../journal/dry-run-journal.ts';
import { formatExplanation } from '../output/format-explanation.ts';
import { createStyle } from '../output/style.ts';
import { configOption, PRESET_HELP, expectPositionals, helpOption, parseCommandArgs } from '../parse-command-args.ts';
import { printSetupWarnings } from '../print-warnings.ts';

const options = {
  ...configOption,
  ...helpOption,
  context: { type: 'string' },
  set: { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

const help = `Usage: hookline explain <event> [--context FILE|-] [--set key=value]... [--config FILE]... [--json]

A dry run: lists every configured hook — of this event or not — whether it would run for this
event and context, and why not: another event, disabled (and by which file), its matcher tried
against which context fields, or no matcher field in the context. Nothing is executed.

Options:
  --context FILE|-    the event's context: a JSON object in FILE, or on stdin with -
  --set key=value     set a top-level context field (repeatable; same rules as emit)
  -c, --config FILE   config file to load (repeatable, in layering order)
${PRESET_HELP}
  --json              print {"event", "context", "hooks": [{name, event, type, selected, reason, …}]}
  -h, --help          show this help

Examples:
  hookline explain stage_start --set node_id=deploy
  hookline explain edge_selected --set edge_from=test --set edge_to=deploy
`;

/** `hookline explain`: core's selection reasons for every hook, without running any (SPEC §13). */
export const explainCommand: Command = {
  help,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('explain', args, options);
    if (values.help === true) {
      io.stdout.write(help);
      return 0;
    }
    expectPositionals('explain', positionals, ['event']);
    const event = positionals[0]!;
    const setup = await loadSetup({ configFiles: values.config, preset: values.preset, cwd: io.cwd, env: io.env });
    const built = await buildContext({ file: values.context, sets: values.set }, presets[setup.config.preset]!, io);
    printSetupWarnings(setup, io, built.warnings);
    // The engine gives the exact selection logic emit uses. Nothing runs, so the sandbox and journal it
    // wants are stand-ins: explaining a docker config does not load docker, nor a task config the journal.
    const engine = createHookEngine({
      config: setup.config,
      runners: setup.runners,
      sandbox: dryRunSandbox(setup.config.sandbox.provider),
      journal: dryRunJournal('explain'),
    });
    try {
      const selections = engine.explain(event, built.context).map((selection) => {
        // Name the file and line that disabled the hook, not the earlier one that defined it.
        const disabled = selection.hook.event === event ? disabledBy(selection.hook) : undefined;
        return disabled === undefined ? selection : { ...selection, reason: `disabled (enabled = false) at ${disabled.file}:${disabled.line}` };
      });
      if (values.json === true) {
        io.stdout.write(`${JSON.stringify({ event, context: { event, ...built.context }, hooks: selections.map(toJson) })}\n`);
      } else {
        const spec = findEvent(engine.preset, event);
        io.stdout.write(`${formatExplanation(event, built.context, selections, createStyle(io.stdout, io.env), { sequential: spec?.sequential, parallel: spec?.parallel })}\n`);
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
};

function dryRunSandbox(name: string): SandboxProvider {
  return defineSandboxProvider({
    name,
    doOpen: () => Promise.reject(new Error('hookline explain runs no hooks')),
  });
}

function toJson(selection: HookSelection): Record<string, unknown> {
  const { hook } = selection;
  return {
    name: hook.name,
    event: hook.event,
    type: hook.type,
    selected: selection.selected,
    reason: selection.reason,
    blocking: hook.blocking,
    enabled: hook.enabled,
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    source: hook.source,
  };
}
