import type { ConfigIssue } from './config-issue.ts';
import type { LayerEntry } from './hook-entry.ts';

/** One source's contribution to the configuration, validated on its own. */
export interface ConfigLayer {
  readonly file: string;
  /** The `preset` it names, if any. */
  readonly preset?: string;
  readonly plugins: readonly string[];
  /** `[sandbox]` as written, if present. */
  readonly sandbox?: { readonly provider?: string; readonly settings: Readonly<Record<string, unknown>> };
  readonly entries: readonly LayerEntry[];
  readonly issues: readonly ConfigIssue[];
  readonly warnings: readonly string[];
}
