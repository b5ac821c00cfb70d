import type { HookDefinition } from '@hookline/core';
import type { CommandModule } from '../command.ts';
import type { list } from '../command-specs.ts';
import { disabledBy } from '../config/disabled-by.ts';
import { formatSource } from '../output/format-source.ts';
import { printWarnings } from '../print-warnings.ts';
import { formatTable } from '../output/format-table.ts';
import { createStyle } from '../output/style.ts';
import { terminalText } from '../output/terminal-text.ts';

/** `hookline list`: the effective hooks with their sources. */
export const listCommand = {
  async run({ values, setup }, io) {
    const { hooks } = setup.config;
    // Config problems a tolerant preset loaded past, and layers that changed a more trusted one's hooks.
    printWarnings(setup.config.notices ?? [], io);
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify(hooks.map((hook) => toJson(hook)))}\n`);
      return 0;
    }
    const style = createStyle(io.stdout, io.env);
    if (hooks.length === 0) {
      io.stdout.write('no hooks configured\n');
      return 0;
    }
    const files = terminalText(setup.files.map((file) => file.file.label).join(', '));
    io.stdout.write(`${hooks.length} ${hooks.length === 1 ? 'hook' : 'hooks'} from ${files}\n\n`);
    const table = formatTable(
      ['hook', 'event', 'type', 'phase', 'durable', 'matcher', 'timeout', 'sandbox', 'source'],
      hooks.map((hook) => {
        const off = hook.enabled ? undefined : 'dim';
        const disabled = disabledBy(hook);
        return [
          {
            text: `${disabled === undefined ? hook.name : `${hook.name} (disabled at ${disabled.file}:${disabled.line})`}${marks(hook)}`,
            format: hook.broken === undefined ? off : 'red',
          },
          { text: hook.event, format: off },
          { text: hook.type, format: off },
          { text: hook.blocking ? 'blocking' : 'non-blocking', format: off },
          { text: hook.durable ? 'durable' : '—', format: off },
          { text: hook.matcher === undefined ? '—' : `/${hook.matcher}/`, format: off },
          { text: `${hook.timeoutMs} ms`, format: off },
          { text: hook.sandbox ? setup.config.sandbox.provider : 'host', format: off },
          { text: formatSource(hook), format: 'dim' },
        ];
      }),
      style,
    );
    io.stdout.write(`${table}\n`);
    return 0;
  },
} satisfies CommandModule<typeof list>;

function toJson(hook: HookDefinition): Record<string, unknown> {
  const disabled = disabledBy(hook);
  return {
    name: hook.name,
    event: hook.event,
    type: hook.type,
    blocking: hook.blocking,
    durable: hook.durable,
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    timeout_ms: hook.timeoutMs,
    sandbox: hook.sandbox,
    on_error: hook.onError,
    enabled: hook.enabled,
    locked: hook.locked === true,
    options: hook.options,
    source: hook.source,
    ...(disabled === undefined ? {} : { disabled_by: disabled }),
    ...(hook.broken === undefined ? {} : { broken: hook.broken }),
    ...(hook.layering === undefined ? {} : { layering: hook.layering }),
  };
}

// What the name column adds: a lock, an invalid hook, a change by a less trusted layer.
function marks(hook: HookDefinition): string {
  return `${hook.locked === true ? ' (locked)' : ''}${hook.broken === undefined ? '' : ' (invalid: fails when selected)'}${hook.layering === undefined ? '' : ' (changed by a later layer)'}`;
}
