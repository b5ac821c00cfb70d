import type { EventContext } from '../context/event-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { Matcher } from './compile-matcher.ts';

/** Whether one hook would run for an event, and why (or why not) — what `hookline explain` prints. */
export interface HookSelection {
  readonly hook: HookDefinition;
  readonly selected: boolean;
  readonly reason: string;
}

/**
 * Decides for one hook whether it is selected for `context`: enabled, of this event, and
 * its matcher (if any) matches at least one of the matcher fields present in the context. A hook with
 * a matcher is never selected for a context that has none of those fields.
 */
export function explainHook(
  hook: HookDefinition,
  context: EventContext,
  matcherFields: readonly string[],
): HookSelection {
  const selection = explainSelection(hook, context, matcherFields);
  // An invalid hook a tolerant preset kept: say that, where it is selected, it fails instead of running.
  return hook.broken !== undefined && selection.selected
    ? { ...selection, reason: `${selection.reason} — but it is invalid and fails instead of running: ${hook.broken}` }
    : selection;
}

function explainSelection(
  hook: HookDefinition,
  context: EventContext,
  matcherFields: readonly string[],
): HookSelection {
  if (hook.event !== context.event)
    return { hook, selected: false, reason: `listens to "${hook.event}", not "${context.event}"` };
  if (!hook.enabled) {
    const where = hook.disabledAt ?? hook.source;
    return { hook, selected: false, reason: `disabled (enabled = false) in ${where.file}:${where.line}` };
  }
  const pattern = hook.matcherPattern;
  if (pattern === undefined) return { hook, selected: true, reason: `no matcher: runs on every "${hook.event}"` };
  const present = matcherFields.filter((field) => isMatchable(context[field]));
  if (present.length === 0) {
    return {
      hook,
      selected: false,
      reason: `matcher /${pattern.source}/ needs one of ${matcherFields.join(', ')}, and the context has none`,
    };
  }
  const matched = present.find((field) => pattern.test(String(context[field])));
  if (matched !== undefined)
    return { hook, selected: true, reason: `matcher /${pattern.source}/ matched ${field(context, matched)}` };
  return {
    hook,
    selected: false,
    reason: `matcher /${pattern.source}/ matched none of ${present.map((name) => field(context, name)).join(', ')}`,
  };
}

/**
 * The selected hooks among `hooks` for `event`, in order — the same verdicts as {@link explainHook}
 * without building reasons, since this runs on every emit. `context` may still hold null fields.
 */
export function selectHooks(
  hooks: readonly HookDefinition[],
  event: string,
  context: Readonly<Record<string, unknown>>,
  matcherFields: readonly string[],
): HookDefinition[] {
  const selected: HookDefinition[] = [];
  for (const hook of hooks) {
    if (hook.event === event && hook.enabled && matches(hook.matcherPattern, context, matcherFields))
      selected.push(hook);
  }
  return selected;
}

function matches(
  pattern: Matcher | undefined,
  context: Readonly<Record<string, unknown>>,
  matcherFields: readonly string[],
): boolean {
  if (pattern === undefined) return true;
  for (const name of matcherFields) {
    const value = context[name];
    if (isMatchable(value) && pattern.test(String(value))) return true;
  }
  return false;
}

function isMatchable(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function field(context: EventContext, name: string): string {
  return `${name}=${JSON.stringify(context[name])}`;
}
