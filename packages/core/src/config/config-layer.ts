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
  /** The file switches every hook off (Claude Code's `disableAllHooks`): its own and less trusted layers' only. */
  readonly disablesAllHooks?: boolean;
  readonly issues: readonly ConfigIssue[];
  /**
   * Problems a preset that keeps valid hooks running (`Preset.invalidHooks`) tolerates: an invalid
   * hook stands in `entries` as a broken one, an unreadable part is left out.
   */
  readonly tolerated?: readonly ConfigIssue[];
  readonly warnings: readonly string[];
}
