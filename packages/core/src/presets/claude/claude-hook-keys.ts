import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { commonHookKeys, MAX_TIMEOUT_MS } from '../../config/common-hook-keys.ts';
import type { KeyRule } from '../../plugins/key-rule.ts';

/** The hook types a Claude Code settings file may use. */
export const CLAUDE_TYPES: readonly string[] = ['command', 'http', 'prompt', 'agent'];

const TIMEOUT_RULE = 'must be a number of seconds greater than 0';
/** Hookline's longest timeout, in seconds: a longer Claude Code timeout is cut to it, with a warning. */
const LONGEST_TIMEOUT_SECONDS = MAX_TIMEOUT_MS / 1000;

/** A key only Claude Code writes: its schema as written, and the canonical key and value it becomes. */
export interface ClaudeOwnKey {
  readonly schema: GenericSchema;
  /** Where a hook that breaks `schema` is told how to fix it. */
  readonly fix?: string;
  /** The canonical key and its value; absent for keys Hookline accepts and has no use for. */
  readonly becomes?: { readonly key: string; value(written: never): unknown };
  /** A warning when a value Claude Code accepts is changed to fit Hookline (a timeout beyond its limit). */
  note?(written: never): string | undefined;
}

/** Claude Code's own keys of a hook. */
export const CLAUDE_OWN_KEYS: Readonly<Record<string, ClaudeOwnKey>> = {
  timeout: {
    // Claude Code takes any positive number of seconds; Hookline's limit is one hour.
    schema: v.optional(
      v.pipe(
        v.number(TIMEOUT_RULE),
        v.gtValue(0, TIMEOUT_RULE),
        v.description(
          `Seconds before the hook is stopped; more than ${LONGEST_TIMEOUT_SECONDS} is cut to ${LONGEST_TIMEOUT_SECONDS}, with a warning.`,
        ),
      ),
    ),
    fix: 'write "timeout": 30 (seconds)',
    becomes: {
      key: 'timeout_ms',
      value: (seconds: number) => Math.min(MAX_TIMEOUT_MS, Math.max(1, Math.round(seconds * 1000))),
    },
    note: (seconds: number) =>
      seconds * 1000 > MAX_TIMEOUT_MS
        ? `"timeout": ${seconds} seconds is beyond Hookline's limit of ${LONGEST_TIMEOUT_SECONDS} seconds (one hour); the hook is stopped after ${LONGEST_TIMEOUT_SECONDS} seconds`
        : undefined,
  },
  async: {
    schema: v.optional(
      v.pipe(
        v.boolean('must be true or false'),
        v.description('Run in the background: the host does not wait, and the answer is ignored.'),
      ),
    ),
    fix: 'write "async": true to run the hook in the background',
    becomes: { key: 'blocking', value: (background: boolean) => !background },
  },
  statusMessage: { schema: v.optional(v.string()) },
  once: { schema: v.optional(v.boolean()) },
};

/** Type keys Claude Code spells its own way, and the names Hookline gives them. */
export const RENAMED: Readonly<Record<string, string>> = { allowedEnvVars: 'allowed_env_vars' };

/** The name a settings file gives a canonical key. */
export function claudeName(key: string): string {
  const own = Object.entries(CLAUDE_OWN_KEYS).find(([, written]) => written.becomes?.key === key)?.[0];
  return own ?? Object.entries(RENAMED).find(([, canonical]) => canonical === key)?.[0] ?? key;
}

// A common key, re-described for a Claude Code reader; the value rules stay the common key's.
function hooklineKey(key: 'on_error' | 'sandbox' | 'name' | 'enabled', description: string): GenericSchema {
  return v.optional(
    v.pipe((commonHookKeys[key] as v.OptionalSchema<GenericSchema, undefined>).wrapped, v.description(description)),
  );
}

/** The common keys Hookline lets a Claude Code hook add. */
const HOOKLINE_KEYS: Readonly<Record<string, GenericSchema>> = {
  on_error: hooklineKey(
    'on_error',
    'Hookline: "block" makes a failing hook (exit code other than 0 and 2, timeout, crash) block instead of letting the action through.',
  ),
  sandbox: hooklineKey(
    'sandbox',
    'Hookline: run in the configured sandbox (default false, as Claude Code runs hooks).',
  ),
  name: hooklineKey('name', 'Hookline: a name for reports, explain and layering.'),
  enabled: hooklineKey('enabled', 'Hookline: false switches the hook off, also one an earlier settings file defined.'),
};

/** The keys a Claude Code hook of a type with these own keys may hold, under their settings-file names. */
export function claudeHookKeys(typeKeys: Readonly<Record<string, GenericSchema>>): Record<string, GenericSchema> {
  const keys: Record<string, GenericSchema> = {};
  for (const [key, schema] of Object.entries(typeKeys)) keys[claudeName(key)] = schema;
  for (const [key, own] of Object.entries(CLAUDE_OWN_KEYS)) keys[key] = own.schema;
  return { ...keys, ...HOOKLINE_KEYS };
}

/**
 * Claude Code posts to plain http:// endpoints (a local service), so an http hook that does not set
 * `tls` gets tls = "off" when its url is http://.
 */
export function fillTls(table: Record<string, unknown>): void {
  if (table['type'] !== 'http' || table['tls'] !== undefined || typeof table['url'] !== 'string') return;
  let scheme: string | undefined;
  try {
    scheme = new URL(table['url']).protocol;
  } catch {
    return;
  }
  if (scheme === 'http:') table['tls'] = 'off';
}

/**
 * A type's rule as it reads a settings file: keys under their settings-file names, and a rule about
 * `tls` applying only where the hook writes `tls` — without it, `fillTls` has made the hook valid.
 */
export function claudeRule(rule: KeyRule): KeyRule {
  const rename = (entries: Readonly<Record<string, GenericSchema>>): Record<string, GenericSchema> =>
    Object.fromEntries(
      Object.entries(entries).map(([key, schema]) => [
        claudeName(key),
        key === 'tls' && schema.type === 'optional'
          ? (schema as v.OptionalSchema<GenericSchema, undefined>).wrapped
          : schema,
      ]),
    );
  return { ...rule, when: rename(rule.when), then: rename(rule.then), key: claudeName(rule.key) };
}
