import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { KeyRule } from '../plugins/key-rule.ts';
import type { HookTypeDeclaration } from '../plugins/runner-type.ts';
import { commonHookKeys } from './common-hook-keys.ts';
import type { DialectPreset } from './dialect-preset.ts';
import { durableRules } from './durable-rules.ts';
import { withRules } from './ruled-schema.ts';

/** The type a hook has when it sets `command` and no `type`: the shorthand for shell commands. */
export const SHORTHAND_TYPE = 'command';

/** What a dialect adds to every canonical hook table it accepts (`agent`: `tool_name` and its rule). */
export interface HookExtras {
  readonly keys?: Readonly<Record<string, GenericSchema>>;
  readonly rules?: readonly KeyRule[];
}

/**
 * The one description of a valid hook for a preset and the installed types. The loader validates
 * every canonical hook table against it (`validateHook`), and every dialect builds the JSON Schema of
 * its `hooks` from it, so what a hook may hold is written here once.
 */
export interface HookSchemas {
  readonly preset: DialectPreset;
  /** `event`: one of the preset's event names. */
  readonly event: GenericSchema;
  /** The installed hook types, by name. */
  readonly types: Readonly<Record<string, HookTypeDeclaration>>;
  /** `name` + `enabled = false` and nothing else: turns off a hook an earlier layer defined. */
  readonly disable: GenericSchema;
  /** Rules over a whole hook table, whatever its type (`durable` needs a non-blocking hook). */
  readonly hookRules: readonly KeyRule[];
  /** The keys a hook of an installed `type` may hold: the common ones and the type's own. */
  keys(type: string): Readonly<Record<string, GenericSchema>>;
  /**
   * One canonical hook table: a variant per installed type (its keys, `type` — optional for the
   * shorthand — and its rules) or the disable form, with the hook rules and the dialect's `extras`.
   */
  hook(extras?: HookExtras): GenericSchema;
}

/** Builds the hook schemas of `preset` for the installed `types`. */
export function hookSchemas(preset: DialectPreset, types: Readonly<Record<string, HookTypeDeclaration>>): HookSchemas {
  const events = preset.events.map((spec) => spec.name);
  const event = v.pipe(v.picklist(events), v.description('The lifecycle event the hook reacts to.'));
  const disable = v.strictObject({ name: v.pipe(v.string(), v.nonEmpty()), enabled: v.literal(false) });
  const hookRules = durableRules(preset);
  const keys = (type: string): Readonly<Record<string, GenericSchema>> => ({
    ...commonHookKeys,
    ...(Object.hasOwn(types, type) ? types[type]!.options.entries : {}),
  });
  const hook = (extras: HookExtras = {}): GenericSchema => {
    const variants = Object.entries(types).map(([name, declaration]) =>
      withRules(
        v.strictObject({
          ...keys(name),
          ...extras.keys,
          event,
          type: name === SHORTHAND_TYPE ? v.optional(v.literal(name)) : v.literal(name),
        }),
        declaration.rules ?? [],
      ),
    );
    const rules = [...hookRules, ...(extras.rules ?? [])];
    return withRules(
      variants.length === 0
        ? v.looseObject({ ...commonHookKeys, ...extras.keys, event })
        : v.union([...variants, disable]),
      rules,
    );
  };
  return { preset, event, types, disable, hookRules, keys, hook };
}
