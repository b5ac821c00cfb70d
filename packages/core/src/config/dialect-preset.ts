/**
 * What the config side reads of a preset (a `Preset` is one): its name and its events. Spelled out
 * here rather than imported, because a preset names its dialect and the two files would import each
 * other.
 */
export interface DialectPreset {
  readonly name: string;
  readonly events: ReadonlyArray<{
    readonly name: string;
    readonly blocking: boolean;
    readonly matcherFields?: readonly string[];
  }>;
}
