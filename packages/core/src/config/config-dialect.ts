import type { GenericSchema } from 'valibot';
import type { HookKeyProblem, HookTypeDeclaration } from '../plugins/runner-type.ts';
import type { ConfigIssue } from './config-issue.ts';
import type { SourceLines } from './source-lines.ts';

/**
 * What a dialect reads of its preset (a `Preset` is one): its name and its events. Spelled out here
 * rather than imported, because a preset names its dialect and the two files would import each other.
 */
export interface DialectPreset {
  readonly name: string;
  readonly events: readonly { readonly name: string; readonly matcherFields?: readonly string[] }[];
}

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
}

/** The parts a dialect builds its JSON Schema of `hooks` from. */
export interface DialectSchemaParts {
  /** Schema of one canonical hook table (every installed type's variant, and the disable form). */
  readonly hook: GenericSchema;
  /** The same with extra keys allowed in every variant (`tool_name`). */
  hookWith(extraKeys: Readonly<Record<string, GenericSchema>>): GenericSchema;
  /**
   * Marks an object schema that holds `type`'s keys (an `agent` http action), so the JSON Schema
   * states the type's cross-key rules on it as the loader checks them.
   */
  withRules<TSchema extends GenericSchema>(schema: TSchema, type: HookTypeDeclaration): TSchema;
  /** Schema of `event`: the preset's event names. */
  readonly event: GenericSchema;
  /** The preset's event names. */
  readonly events: readonly string[];
  /** The installed hook types and their declarations. */
  readonly types: Readonly<Record<string, HookTypeDeclaration>>;
}

/**
 * How a preset's config files write hooks (`arc`: `[[hooks]]` tables; `task`: `[hooks]` lists of
 * commands; `agent`: `[[hooks]]` with `tool_name` and `[hooks.action]`). A dialect only rewrites:
 * validation, defaults and layering are the same for every preset.
 */
export interface ConfigDialect {
  /**
   * The file is some host's whole settings file (`claude`: Claude Code's settings.json): top-level
   * keys other than Hookline's are its own and are not warned about.
   */
  readonly ignoresOtherTopLevelKeys?: boolean;
  /** Reads the hooks of one parsed source. */
  readHooks(source: DialectSource, preset: DialectPreset): DialectResult;
  /** The valibot schema of the top-level `hooks` key, for the config's JSON Schema. */
  hooksSchema(parts: DialectSchemaParts): GenericSchema;
}
