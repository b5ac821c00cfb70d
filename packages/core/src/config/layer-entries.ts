import type { ConfigLayer } from './config-layer.ts';
import type { HookEntry } from './hook-entry.ts';

/** The hooks in force after layering, and what layering wants the user to know. */
export interface LayeredEntries {
  readonly hooks: readonly HookEntry[];
  readonly warnings: readonly string[];
}

/**
 * Layers sources in order: a later hook with the same effective name replaces the earlier
 * one in the earlier one's position, new hooks append, and `name` + `enabled = false` alone disables an
 * earlier hook without restating it. Hooks of a dialect group (a `task` point's command list) stand
 * for one setting: a later source that has the group replaces the whole earlier list, so an earlier
 * list's extra commands do not linger.
 */
export function layerEntries(layers: readonly ConfigLayer[]): LayeredEntries {
  let hooks: HookEntry[] = [];
  const positions = new Map<string, number>();
  const warnings: string[] = [];
  for (const layer of layers) {
    const groups = new Set(layer.entries.flatMap((entry) => (entry.kind === 'hook' && entry.group !== undefined ? [entry.group] : [])));
    if (groups.size > 0) {
      const names = new Set(layer.entries.map((entry) => entry.name));
      const kept = hooks.filter((hook) => hook.group === undefined || !groups.has(hook.group) || names.has(hook.name));
      if (kept.length !== hooks.length) {
        hooks = kept;
        positions.clear();
        for (const [position, hook] of hooks.entries()) positions.set(hook.name, position);
      }
    }
    for (const entry of layer.entries) {
      const position = positions.get(entry.name);
      if (entry.kind === 'disable') {
        if (position === undefined) {
          warnings.push(`${entry.file}:${entry.line}: hooks[${entry.index}] disables "${entry.name}", but no earlier source defines a hook of that name`);
        } else {
          hooks[position] = { ...hooks[position]!, enabled: false, disabledAt: { file: entry.file, line: entry.line } };
        }
      } else if (position === undefined) {
        positions.set(entry.name, hooks.length);
        hooks.push(entry);
      } else {
        hooks[position] = entry;
      }
    }
  }
  return { hooks, warnings };
}
