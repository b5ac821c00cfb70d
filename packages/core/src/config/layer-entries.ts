import type { ConfigLayer } from './config-layer.ts';
import type { HookEntry, LayerEntry } from './hook-entry.ts';

/** The hooks in force after layering, and what layering wants the user to know. */
export interface LayeredEntries {
  readonly hooks: readonly HookEntry[];
  readonly warnings: readonly string[];
  /**
   * What every outcome must repeat: a less trusted layer that replaced or disabled a hook of a more
   * trusted one, or tried to change a locked one (each also in the hook's `layering`).
   */
  readonly notices: readonly string[];
}

/** How a preset's layers combine. */
export type LayeringMode =
  /**
   * Hookline's own (`arc`, `task`, `agent`): a later hook with the same effective name replaces the
   * earlier one in its position, `name` + `enabled = false` disables it, new hooks append.
   */
  | 'replace-by-name'
  /**
   * A host that merges its settings files (`claude`): every layer's hooks run; a later file never
   * replaces or disables an earlier file's hook. Identical hooks run once (`EventSpec.runIdenticalOnce`).
   */
  | 'merge-all';

// The keys of an entry that make it do something else; `line`, `index`, `file`, … only say where.
const MEANING: ReadonlyArray<keyof HookEntry> = [
  'event',
  'type',
  'matcher',
  'blocking',
  'timeoutMs',
  'sandbox',
  'onError',
  'enabled',
  'durable',
  'locked',
];
const KEY_NAMES: Readonly<Record<string, string>> = { timeoutMs: 'timeout_ms', onError: 'on_error' };

/**
 * Layers sources in order. Sources are ranked by trust in that order: the first (the user layer, or
 * the first `--config`) is the most trusted, every later one less — a project's file must not be
 * able to switch off the user's own guards unseen.
 *
 * `replace-by-name`: a later hook with the same effective name replaces the earlier one in its
 * position, new hooks append, and `name` + `enabled = false` alone disables an earlier hook without
 * restating it. Hooks of a dialect group (a `task` point's command list) stand for one setting: a
 * later source that has the group replaces the whole earlier list. Every such change of an earlier
 * layer's hook is reported (a notice in every outcome, and in the hook's `layering`); a hook with
 * `locked = true` is not changed at all — the attempt is ignored and reported instead (not an error,
 * which would let a less trusted file stop every hook from running).
 *
 * `merge-all`: every hook of every layer is kept. A later hook whose name an earlier layer's hook
 * already has is kept under `{name}@{file}`; when it differs from the earlier one (another command,
 * `enabled: false`, …) a notice says it did not change it. A layer that disables all hooks
 * (`disableAllHooks`) switches off its own hooks and those of later layers, never a more trusted one's.
 */
export function layerEntries(layers: readonly ConfigLayer[], mode: LayeringMode = 'replace-by-name'): LayeredEntries {
  return mode === 'merge-all' ? mergeAll(layers) : replaceByName(layers);
}

/** What `replace-by-name` layering builds, layer by layer: a plain object the steps below share. */
interface NamedLayering {
  /** The hooks in force so far, in order; replaced wholesale when a layer drops a group's hooks. */
  hooks: HookEntry[];
  /** Each hook's position in `hooks`, by name. */
  readonly positions: Map<string, number>;
  readonly warnings: string[];
  readonly notices: string[];
}

function replaceByName(layers: readonly ConfigLayer[]): LayeredEntries {
  const layering: NamedLayering = { hooks: [], positions: new Map(), warnings: [], notices: [] };
  for (const layer of layers) {
    dropReplacedGroups(layering, layer);
    for (const entry of layer.entries) layerEntry(layering, entry);
  }
  const { hooks, warnings, notices } = layering;
  return { hooks, warnings, notices };
}

/** A layer that has a dialect group replaces the earlier layers' list of it: their hooks it does not name go. */
function dropReplacedGroups(layering: NamedLayering, layer: ConfigLayer): void {
  const { hooks, positions } = layering;
  const groups = new Set(
    layer.entries.flatMap((entry) => (entry.kind === 'hook' && entry.group !== undefined ? [entry.group] : [])),
  );
  if (groups.size === 0) return;
  const names = new Set(layer.entries.map((entry) => entry.name));
  const dropped = hooks.filter(
    (hook) => hook.group !== undefined && groups.has(hook.group) && !names.has(hook.name) && hook.file !== layer.file,
  );
  const kept = hooks.filter((hook) => !dropped.includes(hook) || hook.locked === true);
  for (const hook of dropped) {
    const text =
      hook.locked === true
        ? lockedNotice(hook, layer.file, 'replace the list holding')
        : `${layer.file} replaced the "${hook.group}" list of ${where(hook)}: hook "${hook.name}" no longer runs`;
    layering.notices.push(text);
  }
  if (kept.length !== hooks.length) {
    layering.hooks = kept;
    positions.clear();
    for (const [position, hook] of kept.entries()) positions.set(hook.name, position);
  }
}

/** One entry of a layer: a new hook appends; one with an earlier hook's name replaces or disables it. */
function layerEntry(layering: NamedLayering, entry: LayerEntry): void {
  const { hooks, positions } = layering;
  const position = positions.get(entry.name);
  if (position === undefined) {
    if (entry.kind === 'disable') {
      layering.warnings.push(
        `${entry.file}:${entry.line}: hooks[${entry.index}] disables "${entry.name}", but no earlier source defines a hook of that name`,
      );
    } else {
      positions.set(entry.name, hooks.length);
      hooks.push(entry);
    }
    return;
  }
  const earlier = hooks[position]!;
  const at = `${entry.file}:${entry.line}`;
  if (entry.kind === 'disable') {
    if (earlier.locked === true) note(layering, position, lockedNotice(earlier, at, 'disable'));
    else {
      hooks[position] = { ...earlier, enabled: false, disabledAt: { file: entry.file, line: entry.line } };
      if (earlier.file !== entry.file)
        note(layering, position, `${at} disabled hook "${earlier.name}" of ${where(earlier)}`);
    }
    return;
  }
  const changed = changedKeys(earlier, entry);
  if (earlier.locked === true) {
    if (changed.length > 0) note(layering, position, lockedNotice(earlier, at, `change ${changed.join(', ')} of`));
    return;
  }
  hooks[position] = { ...entry, ...(earlier.layering === undefined ? {} : { layering: earlier.layering }) };
  if (changed.length > 0 && earlier.file !== entry.file) {
    note(
      layering,
      position,
      `${at} ${entry.enabled === false ? 'disabled' : 'replaced'} hook "${earlier.name}" of ${where(earlier)} (changed: ${changed.join(', ')})`,
    );
  }
}

/** Tells of a change to the hook at `position`: in every outcome, and in the hook's `layering`. */
function note(layering: NamedLayering, position: number, text: string): void {
  const hook = layering.hooks[position]!;
  layering.hooks[position] = { ...hook, layering: [...(hook.layering ?? []), text] };
  layering.notices.push(text);
}

function mergeAll(layers: readonly ConfigLayer[]): LayeredEntries {
  const hooks: HookEntry[] = [];
  const byName = new Map<string, HookEntry>();
  const notices: string[] = [];
  let offFrom: number | undefined;
  for (const [rank, layer] of layers.entries()) {
    if (layer.disablesAllHooks === true) {
      offFrom ??= rank;
      if (rank > 0) {
        notices.push(
          `${layer.file} sets disableAllHooks: its own hooks and those of later files are off, but the hooks of ${layers
            .slice(0, rank)
            .map((earlier) => earlier.file)
            .join(', ')} still run — a less trusted settings file may not switch them off`,
        );
      }
    }
    for (const entry of layer.entries) {
      // A `name` + `enabled: false` entry has nothing to run, and may not switch off an earlier file's hook.
      if (entry.kind === 'disable') {
        const earlier = byName.get(entry.name);
        if (earlier !== undefined && earlier.file !== entry.file)
          notices.push(
            `${entry.file}:${entry.line} tries to disable hook "${entry.name}" of ${where(earlier)}; every settings file's hooks run, so it still does`,
          );
        continue;
      }
      const earlier = byName.get(entry.name);
      let kept: HookEntry = entry;
      if (earlier !== undefined) {
        kept = { ...entry, name: `${entry.name}@${entry.file}` };
        const changed = changedKeys(earlier, entry);
        if (changed.length > 0) {
          const text = `${entry.file}:${entry.line} repeats hook "${earlier.name}" of ${where(earlier)} with other ${changed.join(', ')}; every settings file's hooks run, so both do`;
          notices.push(text);
          kept = { ...kept, layering: [text] };
        }
      } else {
        byName.set(entry.name, entry);
      }
      if (offFrom !== undefined && kept.enabled !== false)
        kept = { ...kept, enabled: false, disabledAt: { file: layers[offFrom]!.file, line: 1 } };
      hooks.push(kept);
    }
  }
  return { hooks, warnings: [], notices };
}

// The keys whose values differ between two definitions of one hook, by their config names.
function changedKeys(earlier: HookEntry, later: HookEntry): string[] {
  const changed = MEANING.filter((key) => JSON.stringify(earlier[key]) !== JSON.stringify(later[key])).map(
    (key) => KEY_NAMES[key] ?? key,
  );
  const options = new Set([...Object.keys(earlier.options), ...Object.keys(later.options)]);
  for (const key of options)
    if (JSON.stringify(earlier.options[key]) !== JSON.stringify(later.options[key])) changed.push(key);
  return changed;
}

function lockedNotice(hook: HookEntry, by: string, attempt: string): string {
  return `${by} tried to ${attempt} locked hook "${hook.name}" (${where(hook)}); ignored — the hook runs as defined there`;
}

function where(hook: HookEntry): string {
  return `${hook.file}:${hook.line}`;
}
