import { createHookEngine, findEvent, type HookSelection, type SandboxProvider } from '@hookline/core';
import { defineSandboxProvider } from '@hookline/core/plugin';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { explain } from '../command-specs.ts';
import { disabledBy } from '../config/disabled-by.ts';
import { dryRunJournal } from '../journal/dry-run-journal.ts';
import { formatExplanation } from '../output/format-explanation.ts';
import { createStyle } from '../output/style.ts';
import { printWarnings } from '../print-warnings.ts';

/** `hookline explain`: core's selection reasons for every hook, without running any. */
export const explainCommand = {
  async run({ values, positionals: { event }, setup, context }, io) {
    // The engine gives the exact selection logic emit uses. Nothing runs, so the sandbox and journal it
    // wants are stand-ins: explaining a docker config does not load docker, nor a task config the journal.
    const engine = createHookEngine({
      config: setup.config,
      runners: setup.runners,
      presets: setup.presets.all,
      sandbox: dryRunSandbox(setup.config.sandbox.provider),
      journal: dryRunJournal('explain'),
      // It holds nothing and runs nothing: there is nothing to seal.
      journalKey: false,
    });
    // Config problems a tolerant preset loaded past, and layers that changed a more trusted one's hooks.
    printWarnings(setup.config.notices ?? [], io);
    try {
      const selections = engine.explain(event, context).map((selection) => {
        // Name the file and line that disabled the hook, not the earlier one that defined it.
        const disabled = selection.hook.event === event ? disabledBy(selection.hook) : undefined;
        return disabled === undefined
          ? selection
          : { ...selection, reason: `disabled (enabled = false) at ${disabled.file}:${disabled.line}` };
      });
      if (values.json === true) {
        io.stdout.write(
          `${JSON.stringify({ event, context: { event, ...context }, hooks: selections.map(toJson) })}\n`,
        );
      } else {
        const spec = findEvent(engine.preset, event);
        io.stdout.write(
          `${formatExplanation(event, context, selections, createStyle(io.stdout, io.env), { sequential: spec?.sequential, parallel: spec?.parallel })}\n`,
        );
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
} satisfies CommandModule<typeof explain>;

function dryRunSandbox(name: string): SandboxProvider {
  return defineSandboxProvider({
    name,
    doOpen: () => Promise.reject(new CliError('HOOKLINE_CLI_DRY_RUN', 'hookline explain runs no hooks')),
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
    ...(hook.locked === true ? { locked: true } : {}),
    ...(hook.broken === undefined ? {} : { broken: hook.broken }),
    ...(hook.layering === undefined ? {} : { layering: hook.layering }),
  };
}
