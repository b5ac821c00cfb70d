import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';

/**
 * A rule across a hook's keys, declared once and checked twice: by the loader, and by the config's
 * JSON Schema as `if`/`then` — so an editor flags it too. When every key of `when` passes its schema
 * (an absent key passes an optional one), every key of `then` must pass its own; otherwise the hook
 * has the problem `message` at `key`. Checks JSON Schema cannot state stay in `RunnerType.check`.
 */
export interface KeyRule {
  readonly when: Readonly<Record<string, GenericSchema>>;
  readonly then: Readonly<Record<string, GenericSchema>>;
  /** The key the problem is reported at. */
  readonly key: string;
  readonly message: string | ((options: Readonly<Record<string, unknown>>) => string);
  readonly fix?: string;
}

/** A rule made ready for the loader, which asks it of every hook. */
interface CompiledRule {
  readonly when: GenericSchema;
  readonly then: GenericSchema;
  /** Keys `when` requires: a hook without one of them cannot break the rule (most hooks). */
  readonly required: readonly string[];
}

const compiledRules = new WeakMap<KeyRule, CompiledRule>();

function compile(rule: KeyRule): CompiledRule {
  let compiled = compiledRules.get(rule);
  if (compiled === undefined) {
    const required = Object.entries(rule.when)
      .filter(([, schema]) => schema.type !== 'optional')
      .map(([key]) => key);
    compiled = { when: v.object(rule.when), then: v.object(rule.then), required };
    compiledRules.set(rule, compiled);
  }
  return compiled;
}

/** Whether a hook's options break the rule. */
export function breaksRule(rule: KeyRule, options: Readonly<Record<string, unknown>>): boolean {
  const compiled = compile(rule);
  if (compiled.required.some((key) => options[key] === undefined)) return false;
  return v.is(compiled.when, options) && !v.is(compiled.then, options);
}

/** The rule as JSON Schema: `{ if: …, then: … }` over the hook table's properties. */
export function keyRuleJsonSchema(rule: KeyRule): Record<string, unknown> {
  const part = (entries: Readonly<Record<string, GenericSchema>>): Record<string, unknown> => {
    const { $schema: _draft, ...schema } = toJsonSchema(v.object(entries), { errorMode: 'ignore' }) as Record<
      string,
      unknown
    >;
    return schema;
  };
  return { if: part(rule.when), then: part(rule.then) };
}

/** The problem a hook whose options break `rule` has, worded by the rule (a `HookKeyProblem`). */
export function ruleProblem(
  rule: KeyRule,
  options: Readonly<Record<string, unknown>>,
): { readonly key: string; readonly message: string; readonly fix?: string } {
  const message = typeof rule.message === 'string' ? rule.message : rule.message(options);
  return { key: rule.key, message, ...(rule.fix === undefined ? {} : { fix: rule.fix }) };
}
