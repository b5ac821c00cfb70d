import * as v from 'valibot';
import { FIRST_PARTY_TYPES } from '../plugins/first-party-types.ts';
import type { InstalledType, RunnerRegistry } from '../plugins/runner-registry.ts';
import { breaksRule, ruleProblem } from '../plugins/key-rule.ts';
import type { HookKeyProblem, HookTypeDeclaration } from '../plugins/runner-type.ts';
import { findEvent, type Preset } from '../presets/preset.ts';
import type { PresetRegistry } from '../presets/preset-registry.ts';
import { compileMatcher } from '../selection/compile-matcher.ts';
import type { ConfigIssue } from './config-issue.ts';
import { effectiveName } from './effective-name.ts';
import type { LayerEntry } from './hook-entry.ts';
import { nearestWord } from './nearest-word.ts';
import type { DialectHook } from './config-dialect.ts';
import { SHORTHAND_TYPE, type HookSchemas } from './hook-schemas.ts';

/** Everything `validateHook` needs to know about where the hook stands. */
export interface HookValidationScope {
  readonly file: string;
  readonly index: number;
  /** The hook as the preset's dialect read it: where it and its keys were written, and its problems. */
  readonly source: DialectHook;
  readonly preset: Preset;
  /** Every preset the host knows, to name the one an unknown event belongs to. */
  readonly presets: PresetRegistry;
  readonly runners: RunnerRegistry;
  /** What a valid hook holds, for this preset and these runners (also the JSON Schema's source). */
  readonly schemas: HookSchemas;
}

/** The validated entry (when the hook is usable) and every issue found in it. */
export interface HookValidation {
  readonly entry?: LayerEntry;
  readonly issues: readonly ConfigIssue[];
  /**
   * The hook's effective name whenever it has one, even when the hook has issues, so that a
   * duplicate name is reported with the hook's other problems rather than only after they are fixed.
   */
  readonly name?: string;
}

/**
 * Validates one canonical hook table against the hook schemas: its type, every key against the
 * common and the type's schemas, the event against the preset's catalog, the rules (the type's and
 * the hook's), the matcher, and the runner's own cross-key checks. Where a message can say more than
 * the schema's (a near event, the package of a missing type, the type a stray key belongs to), the
 * loader words it. It reports every problem of the hook, not just the first.
 */
export function validateHook(raw: unknown, scope: HookValidationScope): HookValidation {
  const { file, index, source } = scope;
  const path = source.path === undefined ? {} : { path: source.path };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      issues: [
        {
          file,
          line: source.line,
          hook: { index, name: `#${index}`, ...path },
          message: 'a hook must be a table',
          fix: 'write it as a [[hooks]] table with event = "…"',
        },
      ],
    };
  }
  const table = raw as Record<string, unknown>;
  const explicitName = typeof table['name'] === 'string' && table['name'] !== '' ? table['name'] : undefined;

  if (explicitName !== undefined && v.is(scope.schemas.disable, table)) {
    return {
      entry: { kind: 'disable', file, line: source.line, index, name: explicitName, ...path },
      issues: [],
      name: explicitName,
    };
  }

  // Every check reports into `hook.issues`, in this order: the order the issues are listed in.
  const hook = readHook(table, explicitName, scope);
  for (const problem of source.problems ?? []) reportProblem(hook, problem);
  checkType(hook);
  checkKeys(hook);
  checkEvent(hook);
  for (const rule of scope.schemas.hookRules) {
    if (breaksRule(rule, table)) reportProblem(hook, ruleProblem(rule, table));
  }
  const matcher = checkMatcher(hook);
  checkTypeRules(hook);
  return validation(hook, matcher);
}

/**
 * What the checks of one hook table share: the table, what it reads as (its event, type, keys and
 * names), and the issues found so far. A plain object handed to one function per check.
 */
interface HookUnderCheck {
  readonly scope: HookValidationScope;
  readonly table: Record<string, unknown>;
  readonly event: string | undefined;
  readonly typeName: string | undefined;
  readonly installed: InstalledType | undefined;
  /** The keys of the hook's type (none when the type is not installed). */
  readonly typeKeys: Readonly<Record<string, unknown>>;
  readonly parsed: ReturnType<typeof parseKeys>;
  /** What the hook's issues call it: its effective name, else a stand-in. */
  readonly displayName: string;
  /** Its effective name, when it has one. */
  readonly name: string | undefined;
  readonly issues: ConfigIssue[];
}

/** The hook's event, type, keys as the schemas parse them, and names. */
function readHook(
  table: Record<string, unknown>,
  explicitName: string | undefined,
  scope: HookValidationScope,
): HookUnderCheck {
  const { source } = scope;
  const event = typeof table['event'] === 'string' ? table['event'] : undefined;
  const typeName = resolveTypeName(table);
  const installed = typeName === undefined ? undefined : scope.runners.find(typeName);
  const typeKeys = installed?.type.options.entries ?? {};
  const parsed = parseKeys(table, scope, typeName);
  // Without its type or a required key of it, a hook has no identity to derive a name from.
  const missingTypeKey =
    !parsed.success &&
    parsed.issues.some(
      (problem) =>
        problem.input === undefined && typeof problem.path?.[0]?.key === 'string' && problem.path[0].key in typeKeys,
    );
  const identity =
    installed === undefined || missingTypeKey
      ? undefined
      : typeIdentity(installed.type, typeName!, pickOptions(table, typeKeys));
  const scopePrefix = source.nameQualifier === undefined ? '' : `${source.nameQualifier}:`;
  const derivedName =
    event === undefined || identity === undefined
      ? undefined
      : effectiveName(undefined, event, `${scopePrefix}${identity}`);
  // A stand-in (`run_start:http`) names such a hook in its issues, which also give its index; it is
  // not an effective name, so neither layering nor the duplicate check sees it.
  const displayName = explicitName ?? derivedName ?? `${event ?? '?'}:${scopePrefix}${typeName ?? '?'}`;
  const name = explicitName ?? derivedName;
  return { scope, table, event, typeName, installed, typeKeys, parsed, displayName, name, issues: [] };
}

// Unknown keys are worded by `checkKeys` (a near key, or the type they belong to), so the open object.
function parseKeys(table: Record<string, unknown>, scope: HookValidationScope, typeName: string | undefined) {
  return v.safeParse(v.object(scope.schemas.keys(typeName ?? '')), table);
}

/** Adds an issue about the hook, at the line of `key` when it was written, else the hook's. */
function report(hook: HookUnderCheck, key: string | undefined, message: string, fix?: string): void {
  const { file, index, source } = hook.scope;
  const line = key === undefined ? source.line : (source.keyLine(key) ?? source.line);
  hook.issues.push({
    file,
    line,
    hook: { index, name: hook.displayName, ...(source.path === undefined ? {} : { path: source.path }) },
    message,
    ...(fix === undefined ? {} : { fix }),
  });
}

function reportProblem(hook: HookUnderCheck, problem: HookKeyProblem): void {
  report(hook, problem.key, problem.message, problem.fix);
}

/** The hook has a type, only one way of giving it, and a runner for it. */
function checkType(hook: HookUnderCheck): void {
  const { table, typeName, scope } = hook;
  // A dialect that could not tell the type (an unknown action type) has said so in its own words.
  const typeReported =
    scope.source.problems?.some((problem) => problem.key === 'type' || problem.key === 'action') === true;
  if (typeName === undefined && !typeReported) {
    report(
      hook,
      undefined,
      'the hook has no type',
      `add \`command = "…"\` for a shell command, or \`type = "…"\` (installed types: ${listOr(scope.runners.types)})`,
    );
  }
  if (
    typeName !== undefined &&
    table['type'] !== undefined &&
    table['command'] !== undefined &&
    typeName !== 'command'
  ) {
    report(
      hook,
      'command',
      `\`command\` cannot be used with type = "${typeName}"`,
      'remove `command`, or remove `type` to make this a command hook',
    );
  }
  if (typeName !== undefined && hook.installed === undefined && !typeReported) {
    report(hook, 'type', `unknown hook type "${typeName}"`, unknownTypeFix(typeName, scope.runners));
  }
}

/** Every key belongs to the hook's type (or to every hook) and holds what the schema asks. */
function checkKeys(hook: HookUnderCheck): void {
  const { scope, typeName, parsed } = hook;
  if (hook.installed !== undefined) {
    const allowed = Object.keys(scope.schemas.keys(typeName!));
    for (const key of Object.keys(hook.table)) {
      if (allowed.includes(key)) continue;
      const near = nearestWord(key, allowed);
      const owner = scope.runners.types.find(
        (type) => type !== typeName && scope.runners.find(type)?.type.options.entries[key] !== undefined,
      );
      report(
        hook,
        key,
        `unknown key \`${key}\` for a ${typeName} hook`,
        owner !== undefined
          ? `\`${key}\` belongs to ${owner} hooks; remove it or set type = "${owner}"`
          : near !== undefined
            ? `did you mean \`${near}\`?`
            : `remove it (keys of a ${typeName} hook: ${allowed.join(', ')})`,
      );
    }
  }
  if (parsed.success) return;
  for (const problem of parsed.issues) {
    const key = problem.path?.[0]?.key;
    const keyName = typeof key === 'string' ? key : undefined;
    if (keyName !== undefined && problem.input === undefined) {
      report(hook, keyName, `missing required key \`${keyName}\``, `add ${keyName} = …`);
    } else {
      const path = problem.path?.map((item) => String(item.key)).join('.') ?? '';
      report(
        hook,
        keyName,
        `\`${path}\` ${problem.message}`,
        keyName === undefined ? undefined : `fix the value of \`${keyName}\``,
      );
    }
  }
}

/** The event is in the preset's catalog; else the issue names a near one, or the preset that has it. */
function checkEvent(hook: HookUnderCheck): void {
  const { event, scope } = hook;
  if (event === undefined || findEvent(scope.preset, event) !== undefined) return;
  const names = scope.preset.events.map((spec) => spec.name);
  const near = nearestWord(event, names);
  const owner = scope.presets.withEvent(event, scope.preset)[0];
  const hint =
    owner !== undefined
      ? `it is an event of preset "${owner}" (set preset = "${owner}"); `
      : near !== undefined
        ? `did you mean "${near}"? `
        : '';
  report(
    hook,
    'event',
    `unknown event "${event}" for preset "${scope.preset.name}"`,
    `${hint}valid events: ${names.join(', ')}`,
  );
}

/** The hook's matcher, compiled; an issue when it does not compile. */
function checkMatcher(hook: HookUnderCheck): { readonly matcher?: string; readonly compiled?: CompiledMatcher } {
  const matcher = typeof hook.table['matcher'] === 'string' ? hook.table['matcher'] : undefined;
  if (matcher === undefined) return {};
  const compiled = compileMatcher(matcher, { lookaround: hook.scope.preset.matcherLookaround === true });
  if (!compiled.ok)
    report(hook, 'matcher', `invalid regular expression in \`matcher\`: ${compiled.error}`, compiled.fix);
  return { matcher, compiled };
}

/** The rules and the cross-key check of the hook's type, once its keys parsed. */
function checkTypeRules(hook: HookUnderCheck): void {
  const { installed, parsed, table, typeKeys } = hook;
  if (installed === undefined || !parsed.success) return;
  // Rules read the keys as written (as the JSON Schema's if/then does); `check` is typed to receive
  // the keys as the schema outputs them.
  const written = pickOptions(table, typeKeys);
  for (const rule of installed.type.rules ?? []) {
    if (breaksRule(rule, written)) reportProblem(hook, ruleProblem(rule, written));
  }
  for (const problem of installed.type.check?.(pickOptions(parsed.output, typeKeys)) ?? [])
    reportProblem(hook, problem);
}

/** The checked hook's entry: usable, a stand-in that fails when selected (see `brokenEntry`), or none. */
function validation(
  hook: HookUnderCheck,
  { matcher, compiled }: { readonly matcher?: string; readonly compiled?: CompiledMatcher },
): HookValidation {
  const { scope, table, event, typeName, installed, issues, parsed, displayName } = hook;
  const { file, index, source } = scope;
  const named = hook.name === undefined ? {} : { name: hook.name };
  if (
    issues.length > 0 &&
    scope.preset.invalidHooks === 'fail-when-selected' &&
    event !== undefined &&
    findEvent(scope.preset, event) !== undefined
  ) {
    const place = { file, line: source.line, index, name: displayName, event, typeName };
    return {
      issues,
      ...named,
      entry: brokenEntry(table, { ...place, path: source.path, group: source.group, compiled, matcher }, issues),
    };
  }
  if (issues.length > 0 || installed === undefined || event === undefined || typeName === undefined)
    return { issues, ...named };
  const options = pickOptions(parsed.success ? parsed.output : table, hook.typeKeys);
  return {
    issues,
    ...named,
    entry: {
      kind: 'hook',
      file,
      line: source.line,
      index,
      name: displayName,
      event,
      type: typeName,
      ...(matcher === undefined || !compiled?.ok ? {} : { matcher, matcherPattern: compiled.pattern }),
      ...optional('blocking', table['blocking']),
      ...optional('timeoutMs', table['timeout_ms']),
      ...optional('sandbox', table['sandbox']),
      ...optional('onError', table['on_error']),
      ...optional('enabled', table['enabled']),
      ...optional('locked', table['locked']),
      ...optional('durable', table['durable']),
      options,
      ...(source.path === undefined ? {} : { path: source.path }),
      ...optional('group', source.group),
    },
  };
}

type CompiledMatcher = ReturnType<typeof compileMatcher>;

/** Where an invalid hook stands, for the entry that stands in for it. */
interface BrokenPlace {
  readonly file: string;
  readonly line: number;
  readonly index: number;
  readonly name: string;
  readonly event: string;
  readonly typeName: string | undefined;
  readonly path: string | undefined;
  readonly group: string | undefined;
  readonly matcher: string | undefined;
  readonly compiled: CompiledMatcher | undefined;
}

/**
 * The stand-in of an invalid hook: it keeps the keys that are valid on their own (`blocking`,
 * `on_error`, a matcher that compiles — without one it is selected on every emit of its event, since
 * where it was meant to run cannot be told) and fails, naming every problem, wherever it is selected.
 */
function brokenEntry(table: Record<string, unknown>, place: BrokenPlace, issues: readonly ConfigIssue[]): LayerEntry {
  const problems = issues.map(
    (issue) =>
      `${issue.line === undefined ? '' : `line ${issue.line}: `}${issue.message}${issue.fix === undefined ? '' : ` — ${issue.fix}`}`,
  );
  const broken = `this hook is invalid in ${place.file}, so it did not run: ${problems.join('; ')}. Fix it (\`hookline validate\` lists every problem).`;
  const flag = (key: string): Record<string, unknown> => (typeof table[key] === 'boolean' ? { [key]: table[key] } : {});
  const onError =
    table['on_error'] === 'block' || table['on_error'] === 'proceed' ? { onError: table['on_error'] } : {};
  return {
    kind: 'hook',
    file: place.file,
    line: place.line,
    index: place.index,
    name: place.name,
    event: place.event,
    type: place.typeName ?? 'command',
    ...(place.matcher === undefined || !place.compiled?.ok
      ? {}
      : { matcher: place.matcher, matcherPattern: place.compiled.pattern }),
    ...flag('blocking'),
    ...onError,
    ...flag('enabled'),
    options: {},
    ...optional('path', place.path),
    ...optional('group', place.group),
    broken,
  } as LayerEntry;
}

// A third-party identity may throw, or return something else than a string, for options that failed validation.
function typeIdentity(type: HookTypeDeclaration, typeName: string, options: Record<string, unknown>): string {
  try {
    const identity: unknown = type.identity?.(options) ?? typeName;
    return typeof identity === 'string' ? identity : typeName;
  } catch {
    return typeName;
  }
}

function unknownTypeFix(typeName: string, runners: RunnerRegistry): string {
  const installed = `installed types: ${listOr(runners.types)}`;
  const provider = FIRST_PARTY_TYPES[typeName];
  if (provider !== undefined) return `install ${provider} and pass its runner to Hookline (${installed})`;
  const near = nearestWord(typeName, [...runners.types, ...Object.keys(FIRST_PARTY_TYPES)]);
  if (near === undefined) return `install the plugin that provides it and list it in plugins = [...] (${installed})`;
  const nearProvider = runners.find(near) === undefined ? FIRST_PARTY_TYPES[near] : undefined;
  return `did you mean type = "${near}"?${nearProvider === undefined ? '' : ` It is provided by ${nearProvider}.`} (${installed})`;
}

function resolveTypeName(table: Record<string, unknown>): string | undefined {
  if (typeof table['type'] === 'string') return table['type'];
  if (table['command'] !== undefined) return SHORTHAND_TYPE;
  return undefined;
}

function pickOptions(
  table: Record<string, unknown>,
  typeKeys: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const key of Object.keys(typeKeys)) {
    if (table[key] !== undefined) options[key] = table[key];
  }
  return options;
}

function optional(key: string, value: unknown): Record<string, unknown> {
  return value === undefined ? {} : { [key]: value };
}

function listOr(types: readonly string[]): string {
  return types.length === 0 ? 'none' : types.join(', ');
}
