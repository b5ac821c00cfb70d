import type { Preset } from '../presets/preset.ts';
import { findEvent } from '../presets/preset.ts';
import type { PresetRegistry } from '../presets/preset-registry.ts';
import { canonicalDialect } from './canonical-dialect.ts';
import type { ConfigIssue } from './config-issue.ts';
import type { ConfigSource } from './read-config-source.ts';
import { readDialect } from './read-dialect.ts';

/**
 * A file written for another preset — an `agent` settings file without `preset = "agent"` — fails
 * under the active one with an issue for every key and event it does not know. When every event the
 * file names belongs to one other preset, read in that preset's own dialect, and some of them are
 * unknown to the active preset, this returns the one issue that matters: which preset to name. The
 * file's other problems, if any, show once that line is there.
 */
export function suggestPreset(
  source: ConfigSource,
  active: ActivePreset,
  presets: PresetRegistry,
): ConfigIssue | undefined {
  for (const candidate of presets.all) {
    if (candidate.name === active.preset.name) continue;
    const read = readDialect(candidate.dialect ?? canonicalDialect, source, candidate);
    if (read.issues.length > 0) continue;
    const events = read.hooks
      .map((hook) => ({ hook, event: eventOf(hook.table) }))
      .filter((found) => found.event !== undefined);
    if (events.length === 0 || !events.every(({ event }) => findEvent(candidate, event!) !== undefined)) continue;
    const foreign = events.filter(({ event }) => findEvent(active.preset, event!) === undefined);
    if (foreign.length === 0) continue;
    const names = [...new Set(foreign.map(({ event }) => event!))];
    const written = source.data['preset'];
    const first = foreign[0]!.hook;
    const origin =
      active.namedIn === undefined
        ? ' (the default)'
        : active.namedIn === source.file
          ? ''
          : ` (named in ${active.namedIn})`;
    return {
      file: source.file,
      line: source.lines.topLevel('preset') ?? first.keyLine('event') ?? first.line,
      message: `${plural(names.length, 'event')} ${names.map((name) => `"${name}"`).join(', ')} ${names.length === 1 ? 'belongs' : 'belong'} to preset "${candidate.name}", not to preset "${active.preset.name}"${origin}`,
      fix:
        written === undefined
          ? `add preset = "${candidate.name}" at the top of the file`
          : `write preset = "${candidate.name}" instead of preset = ${JSON.stringify(written)}`,
    };
  }
  return undefined;
}

/** The preset a configuration uses, and the file that named it (none: the default). */
export interface ActivePreset {
  readonly preset: Preset;
  readonly namedIn?: string;
}

function eventOf(table: unknown): string | undefined {
  if (typeof table !== 'object' || table === null) return undefined;
  const event = (table as Record<string, unknown>)['event'];
  return typeof event === 'string' ? event : undefined;
}

function plural(count: number, word: string): string {
  return count === 1 ? `the ${word}` : `the ${word}s`;
}
