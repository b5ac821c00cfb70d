import type { GenericSchema } from 'valibot';
import type { HookKeyProblem } from '../plugins/runner-type.ts';
import type { ConfigIssue } from './config-issue.ts';
import type { DialectPreset } from './dialect-preset.ts';
import type { HookSchemas } from './hook-schemas.ts';
import type { SourceLines } from './source-lines.ts';

export type { DialectPreset } from './dialect-preset.ts';

/** One parsed config source, as a dialect reads it. */
export interface DialectSource {
  readonly file: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly lines: SourceLines;
}

/**
 * One hook a dialect found, rewritten as the canonical `[[hooks]]` table it stands for, with where
 * its parts were written so that every issue still names the right line.
 */
export interface DialectHook {
  /** The hook's keys as a canonical `[[hooks]]` table holds them (`event`, `type`/`command`, …). */
  readonly table: unknown;
  /** Line of the hook: its `[[hooks]]` header, or the line of its command in a list. */
  readonly line: number;
  /** Line of a canonical key, when the source shows where it was written. */
  keyLine(key: string): number | undefined;
  /** How issues name the hook when `hooks[index]` would not find it, e.g. `hooks.after_merge[1]`. */
  readonly path?: string;
  /** Problems the dialect found while rewriting (a bad action type, `method = "GET"`), by canonical key. */
  readonly problems?: readonly HookKeyProblem[];
  /** What the dialect changed to make the hook fit Hookline (a timeout clamped to its limit). */
  readonly warnings?: readonly string[];
  /**
   * Inserted between the event and the identity in an unnamed hook's effective name, so hooks that
   * differ only by it stay distinct: `post_tool_use:FileWrite:cargo fmt`.
   */
  readonly nameQualifier?: string;
  /**
   * Hooks of one group stand for one setting (`task`: a point's command list). A later source that
   * has hooks of the group replaces the earlier sources' hooks of that group as a whole, instead of
   * name by name.
   */
  readonly group?: string;
}

/** What a dialect read from one source: the hooks, and problems that belong to no single hook. */
export interface DialectResult {
  readonly hooks: readonly DialectHook[];
  readonly issues: readonly ConfigIssue[];
  /** The file asks for every hook to be off (Claude Code's `disableAllHooks: true`). */
  readonly disablesAllHooks?: boolean;
}

/**
 * How a preset's config files write hooks (`arc`: `[[hooks]]` tables; `task`: `[hooks]` lists of
 * commands; `agent`: `[[hooks]]` with `tool_name` and `[hooks.action]`). A dialect checks and
 * rewrites its own form; the canonical tables it yields are validated, defaulted and layered the same
 * for every preset.
 */
export interface ConfigDialect {
  /**
   * The file is some host's whole settings file (`claude`: Claude Code's settings.json): top-level
   * keys other than Hookline's are its own and are not warned about.
   */
  readonly ignoresOtherTopLevelKeys?: boolean;
  /**
   * The form of top-level `hooks` as this dialect writes it: one valibot schema, with the hook
   * schemas wherever a hook stands. The loader reads a file's `hooks` with it before anything else,
   * hooks left open (`schemas` absent: `v.unknown()` in their place), each problem worded by the node
   * it concerns (`worded`) at its line (`readDialect`); `hookline schema` prints it with the hooks
   * filled in.
   */
  hooksSchema(preset: DialectPreset, schemas?: HookSchemas): GenericSchema;
  /**
   * The file's `hooks` as `hooksSchema` reads it, when the dialect writes another host's form in its
   * own (`gemini`: timeouts in milliseconds read as Claude Code's seconds); default: as written.
   */
  formValue?(hooks: unknown): unknown;
  /** The line of a path below `hooks`, for the form's issues; default: JSON paths, else `hooks`' line. */
  formLine?(path: ReadonlyArray<string | number>, lines: SourceLines): number | undefined;
  /**
   * Rewrites the hooks of one parsed source into canonical tables, skipping the parts the form
   * refuses. With `schemas` (when loading), the dialect's own keys of each hook are checked against
   * the same declarations `hooksSchema` states; without them (a host asking which hook types a file
   * uses, before any runner is loaded) the hooks are only rewritten.
   */
  readHooks(source: DialectSource, preset: DialectPreset, schemas?: HookSchemas): DialectResult;
}
