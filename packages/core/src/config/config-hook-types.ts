import { builtInPresets } from '../presets/built-in-presets.ts';
import type { PresetRegistry } from '../presets/preset-registry.ts';
import { canonicalDialect } from './canonical-dialect.ts';
import type { ConfigSource } from './read-config-source.ts';

/**
 * The hook types parsed (not yet validated) sources use, read through their preset's dialect —
 * `type`, or `command` for the shorthand; `agent`'s shell actions are `command` and its http actions
 * `http`; every `task` command is `command` — so that a host can load only those runners before
 * calling `loadConfig`. Sources that do not parse contribute nothing. `presets`: the built-in ones and
 * the host's plugins' ones.
 */
export function configHookTypes(
  sources: readonly ConfigSource[],
  requestedPreset?: string,
  presets: PresetRegistry = builtInPresets,
): Set<string> {
  const preset = presets.presetFor(sources, requestedPreset);
  const dialect = preset.dialect ?? canonicalDialect;
  const types = new Set<string>();
  for (const source of sources) {
    for (const hook of dialect.readHooks(source, preset).hooks) {
      if (typeof hook.table !== 'object' || hook.table === null) continue;
      const table = hook.table as Record<string, unknown>;
      if (typeof table['type'] === 'string') types.add(table['type']);
      else if (table['command'] !== undefined) types.add('command');
    }
  }
  return types;
}
