import type { OnErrorPolicy } from '../decisions/decision.ts';

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
  readonly matcherPattern?: RegExp;
  readonly blocking?: boolean;
  readonly timeoutMs?: number;
  readonly sandbox?: boolean;
  readonly onError?: OnErrorPolicy;
  readonly enabled?: boolean;
  readonly options: Readonly<Record<string, unknown>>;
}

/** `name = "x"` with `enabled = false` and nothing else: turns off a hook of an earlier layer. */
export interface DisableEntry {
  readonly kind: 'disable';
  readonly file: string;
  readonly line: number;
  readonly index: number;
  readonly name: string;
}

/** What one `[[hooks]]` table of a source contributes. */
export type LayerEntry = HookEntry | DisableEntry;
