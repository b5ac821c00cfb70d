import { PluginError } from '../errors/plugin-error.ts';
import { interfaceVersionProblem } from '../plugins/interface-version.ts';
import { findEvent, type Preset } from './preset.ts';

/** A config source as far as choosing its preset goes. */
export interface PresetSource {
  readonly file: string;
  readonly format?: 'toml' | 'json';
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The presets a host knows, by name: the built-in ones and those its plugins offer, found the same
 * way. Nothing else in Hookline keeps a list of presets.
 */
export class PresetRegistry {
  readonly #byName: ReadonlyMap<string, Preset>;
  /** The preset of a config that names none and that no preset recognises. */
  readonly fallback: Preset;

  /** Throws a {@link PluginError} for a preset of another interface version or a name given twice. */
  constructor(presets: readonly Preset[], fallback: Preset = presets[0]!) {
    const byName = new Map<string, Preset>();
    for (const preset of presets) {
      const mismatch = interfaceVersionProblem('preset', preset);
      if (mismatch !== undefined) throw new PluginError(`${mismatch}; install versions that match.`);
      const known = byName.get(preset.name);
      if (known !== undefined && known !== preset)
        throw new PluginError(`Two presets are named "${preset.name}"; a preset plugin cannot replace another preset.`);
      byName.set(preset.name, preset);
    }
    this.#byName = byName;
    this.fallback = fallback;
  }

  /** This registry and `more` (a plugin's presets), the same `fallback`. */
  with(more: readonly Preset[]): PresetRegistry {
    return more.length === 0 ? this : new PresetRegistry([...this.#byName.values(), ...more], this.fallback);
  }

  get(name: string): Preset | undefined {
    return this.#byName.get(name);
  }

  get names(): string[] {
    return [...this.#byName.keys()];
  }

  get all(): Preset[] {
    return [...this.#byName.values()];
  }

  /**
   * The preset sources are written for: `requested` (a host's or the CLI's `--preset`) when known,
   * else the first known `preset = …` a source names, else the first preset that recognises a source
   * (`recognises`), else the fallback.
   */
  presetFor(sources: readonly PresetSource[], requested?: string): Preset {
    const asked = requested === undefined ? undefined : this.get(requested);
    if (asked !== undefined) return asked;
    for (const source of sources) {
      const named = source.data['preset'];
      const preset = typeof named === 'string' ? this.get(named) : undefined;
      if (preset !== undefined) return preset;
    }
    const recognised = this.all.find((preset) =>
      sources.some((source) => preset.recognises?.({ ...source, format: source.format ?? 'toml' }) === true),
    );
    return recognised ?? this.fallback;
  }

  /**
   * The names of the presets other than `current` whose catalog has `event`: an event unknown to the
   * active preset is often one of another preset's, and the fix is then to name that preset.
   */
  withEvent(event: string, current: Preset): string[] {
    return this.all
      .filter((preset) => preset.name !== current.name && findEvent(preset, event) !== undefined)
      .map((preset) => preset.name);
  }
}
