import type { SourceLocation } from './hook-definition.ts';
import type { OnErrorPolicy } from '../decisions/decision.ts';
import type { Matcher } from '../selection/compile-matcher.ts';

/** A hook as written in one source, validated but not yet layered or defaulted. */
export interface HookEntry {
  readonly kind: 'hook';
  readonly file: string;
  readonly line: number;
  readonly index: number;
  readonly name: string;
  readonly event: string;
  readonly type: string;
  readonly matcher?: string;
  readonly matcherPattern?: Matcher;
  readonly blocking?: boolean;
  readonly timeoutMs?: number;
  readonly sandbox?: boolean;
  readonly onError?: OnErrorPolicy;
  readonly enabled?: boolean;
  /** No later (less trusted) source may replace or disable it. */
  readonly locked?: boolean;
  /** What layering did to the hook, or refused to do: one sentence each, for list, explain and every outcome. */
  readonly layering?: readonly string[];
  /** Where a later source's `name` + `enabled = false` turned this hook off. */
  readonly disabledAt?: SourceLocation;
  readonly durable?: boolean;
  readonly options: Readonly<Record<string, unknown>>;
  /** Where a dialect wrote it, when `hooks[index]` would not find it. */
  readonly path?: string;
  /** The dialect's group: a later source's hooks of the group replace the earlier ones as a whole. */
  readonly group?: string;
  /**
   * Why the hook as written is invalid, under a preset that keeps the valid hooks running
   * (`Preset.invalidHooks`): the hook fails with this error wherever it would be selected.
   */
  readonly broken?: string;
}

/** `name = "x"` with `enabled = false` and nothing else: turns off a hook of an earlier layer. */
export interface DisableEntry {
  readonly kind: 'disable';
  readonly file: string;
  readonly line: number;
  readonly index: number;
  readonly name: string;
  readonly path?: string;
}

/** What one `[[hooks]]` table of a source contributes. */
export type LayerEntry = HookEntry | DisableEntry;
