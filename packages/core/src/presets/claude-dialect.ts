import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { ConfigIssue } from '../config/config-issue.ts';
import type { ConfigDialect, DialectHook } from '../config/config-dialect.ts';
import { firstCharacters } from '../config/effective-name.ts';
import { nearestWord } from '../config/nearest-word.ts';
import type { SourceLines } from '../config/source-lines.ts';
import type { HookKeyProblem } from '../plugins/runner-type.ts';
import { claudeMatcher } from './claude-matcher.ts';

/** The hook types a Claude Code settings file may use. */
const CLAUDE_TYPES = ['command', 'http', 'prompt', 'agent'];
/** Claude Code's keys of a hook, and what Hookline calls them. */
const RENAMED: Readonly<Record<string, string>> = { timeout: 'timeout_ms', allowedEnvVars: 'allowed_env_vars' };
/** Claude Code keys Hookline accepts and has no use for. */
const IGNORED = ['statusMessage', 'once'];
/** Keys a hook may carry: Claude Code's, and Hookline's own additions. */
const HOOK_KEYS = [
  'type', 'command', 'timeout', 'async', 'url', 'headers', 'allowedEnvVars', 'prompt', 'model', ...IGNORED,
  'name', 'on_error', 'sandbox', 'enabled', 'max_output_bytes', 'tls', 'signing_secret_env', 'block_private_addresses', 'max_tool_rounds',
];
const GROUP_KEYS = ['matcher', 'hooks'];
const GROUP_FORM = '{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}';
const TIMEOUT_RULE = 'must be a number of seconds greater than 0 and at most 3600';
/** How much of a command an effective name shows before it is cut and tagged with a hash. */
const NAME_CHARACTERS = 60;

/**
 * Claude Code's settings form: `{"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type":
 * "command", "command": "…", "timeout": 30}]}]}}`; every other top-level key of the settings file is
 * ignored. Each hook becomes a canonical hook: `timeout` in seconds becomes `timeout_ms`,
 * `allowedEnvVars` `allowed_env_vars`, `async: true` a non-blocking hook, the matcher a Hookline
 * matcher (see `claudeMatcher`; dropped for events that have none). Hookline's own keys (`on_error`,
 * `sandbox`, `name`, …) may be added to a hook. An unnamed hook is named
 * `{Event}:{matcher or *}:{command, url or prompt}`, so that the same hook in two settings files is
 * one hook (the later file's, in the earlier one's place) and identical entries of one file collapse.
 */
export const claudeDialect: ConfigDialect = {
  ignoresOtherTopLevelKeys: true,
  readHooks({ file, data, lines }, preset) {
    const hooks = data['hooks'];
    if (hooks === undefined) return { hooks: [], issues: [] };
    if (!isObject(hooks)) {
      return { hooks: [], issues: [{ file, line: lines.at(['hooks']) ?? 1, message: '`hooks` must be an object keyed by event name', fix: `write "hooks": {"PreToolUse": [${GROUP_FORM}]}` }] };
    }
    const read: DialectHook[] = [];
    const issues: ConfigIssue[] = [];
    const seen = new Set<string>();
    for (const [event, groups] of Object.entries(hooks)) {
      const spec = preset.events.find((candidate) => candidate.name === event);
      const eventLine = lines.at(['hooks', event]) ?? 1;
      if (spec === undefined) {
        const names = preset.events.map((candidate) => candidate.name);
        const near = nearestWord(event, names);
        issues.push({ file, line: eventLine, message: `unknown event "${event}" for preset "${preset.name}"`, fix: `${near === undefined ? '' : `did you mean "${near}"? `}valid events: ${names.join(', ')}` });
        continue;
      }
      if (!Array.isArray(groups)) {
        issues.push({ file, line: eventLine, message: `\`hooks.${event}\` must be an array of matcher groups`, fix: `write "${event}": [${GROUP_FORM}]` });
        continue;
      }
      for (const [groupIndex, group] of groups.entries()) {
        const groupPath = ['hooks', event, groupIndex];
        const groupLine = lines.at(groupPath) ?? eventLine;
        const where = `hooks.${event}[${groupIndex}]`;
        if (!isObject(group)) {
          issues.push({ file, line: groupLine, message: `\`${where}\` must be an object`, fix: `write ${GROUP_FORM}` });
          continue;
        }
        for (const key of Object.keys(group)) {
          if (GROUP_KEYS.includes(key)) continue;
          const near = nearestWord(key, GROUP_KEYS);
          issues.push({ file, line: lines.at([...groupPath, key]) ?? groupLine, message: `unknown key \`${key}\` in \`${where}\``, fix: near === undefined ? `a matcher group has only "matcher" and "hooks": ${GROUP_FORM}` : `did you mean "${near}"?` });
        }
        const matcher = group['matcher'];
        if (matcher !== undefined && typeof matcher !== 'string') {
          issues.push({ file, line: lines.at([...groupPath, 'matcher']) ?? groupLine, message: `\`${where}.matcher\` must be a string`, fix: 'write "matcher": "Bash", "Edit|Write", "mcp__.*", or leave it out to match everything' });
          continue;
        }
        const entries = group['hooks'];
        if (!Array.isArray(entries)) {
          issues.push({ file, line: lines.at([...groupPath, 'hooks']) ?? groupLine, message: `\`${where}.hooks\` must be an array of hooks`, fix: `write ${GROUP_FORM}` });
          continue;
        }
        // An event without matcher support ignores the matcher, as Claude Code does.
        const pattern = spec.matcherFields?.length === 0 ? undefined : claudeMatcher(matcher);
        for (const [hookIndex, entry] of entries.entries()) {
          const hook = claudeHook(entry, { event, matcher: pattern, label: matcher === undefined || matcher.trim() === '' ? '*' : matcher.trim(), path: [...groupPath, 'hooks', hookIndex], lines, fallbackLine: groupLine });
          const name = isObject(hook.table) ? hook.table['name'] : undefined;
          // The same hook twice in one file runs once in Claude Code; here it is simply read once.
          if (typeof name === 'string' && seen.has(name) && isObject(entry) && entry['name'] === undefined) continue;
          if (typeof name === 'string') seen.add(name);
          read.push(hook);
        }
      }
    }
    return { hooks: read, issues };
  },
  hooksSchema({ types, events }) {
    const variants: GenericSchema[] = [];
    for (const type of CLAUDE_TYPES) {
      const declared = types[type];
      if (declared === undefined) continue;
      variants.push(v.strictObject({ type: v.literal(type), ...claudeKeys(declared.options.entries) }));
    }
    const hook = variants.length === 1 ? variants[0]! : v.union(variants);
    const group = v.strictObject({
      matcher: v.optional(v.pipe(v.string(), v.description('Tool names (exact: "Bash", "Edit|Write"), a regular expression ("mcp__.*"), or "*"/"" for all. SessionStart: source; PreCompact: trigger; Notification: notification_type; SubagentStart/Stop: agent_type; SessionEnd: reason.'))),
      hooks: v.array(hook),
    });
    return v.strictObject(Object.fromEntries(events.map((event) => [event, v.optional(v.array(group))])));
  },
};

/** Where a hook stands in its file, for names and lines. */
interface HookPlace {
  readonly event: string;
  readonly matcher: string | undefined;
  /** The matcher as written, for the effective name. */
  readonly label: string;
  readonly path: readonly (string | number)[];
  readonly lines: SourceLines;
  readonly fallbackLine: number;
}

function claudeHook(entry: unknown, place: HookPlace): DialectHook {
  const line = place.lines.at(place.path) ?? place.fallbackLine;
  const path = place.path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
  const keyLine = (key: string): number | undefined => {
    if (key === 'matcher') return place.lines.at([...place.path.slice(0, -2), 'matcher']);
    const written = Object.entries(RENAMED).find(([, canonical]) => canonical === key)?.[0] ?? (key === 'blocking' ? 'async' : key);
    return place.lines.at([...place.path, written]);
  };
  if (!isObject(entry)) return { table: entry, line, keyLine, path };
  const problems: HookKeyProblem[] = [];
  const table: Record<string, unknown> = { event: place.event };
  if (place.matcher !== undefined) table['matcher'] = place.matcher;
  for (const [key, value] of Object.entries(entry)) {
    if (IGNORED.includes(key)) continue;
    if (!HOOK_KEYS.includes(key)) {
      const near = nearestWord(key, HOOK_KEYS);
      problems.push({ key, message: `unknown key \`${key}\` in a Claude Code hook`, fix: near === undefined ? `remove it (keys of a hook: ${HOOK_KEYS.join(', ')})` : `did you mean "${near}"?` });
      continue;
    }
    if (key === 'timeout') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 3600) problems.push({ key: 'timeout_ms', message: `\`timeout\` ${TIMEOUT_RULE}, got ${JSON.stringify(value)}`, fix: 'write "timeout": 30 (seconds)' });
      else table['timeout_ms'] = Math.max(1, Math.round(value * 1000));
      continue;
    }
    if (key === 'async') {
      if (typeof value !== 'boolean') problems.push({ key: 'blocking', message: '`async` must be true or false', fix: 'write "async": true to run the hook in the background' });
      else table['blocking'] = !value;
      continue;
    }
    table[RENAMED[key] ?? key] = value;
  }
  const type = table['type'];
  if (type === undefined && table['command'] === undefined) {
    problems.push({ key: 'type', message: 'the hook has no `type`', fix: `add "type": ${CLAUDE_TYPES.map((name) => `"${name}"`).join(', ').replace(/, ([^,]*)$/, ' or $1')}` });
  } else if (type !== undefined && (typeof type !== 'string' || !CLAUDE_TYPES.includes(type))) {
    const near = typeof type === 'string' ? nearestWord(type, CLAUDE_TYPES) : undefined;
    problems.push({ key: 'type', message: `unsupported hook type ${JSON.stringify(type)}`, fix: `${near === undefined ? '' : `did you mean "${near}"? `}supported types: ${CLAUDE_TYPES.join(', ')}` });
  }
  // Claude Code posts to plain http:// endpoints (a local service); Hookline needs TLS turned off for them.
  if (table['type'] === 'http' && typeof table['url'] === 'string' && table['url'].startsWith('http://') && table['tls'] === undefined) table['tls'] = 'off';
  if (table['name'] === undefined) table['name'] = hookName(place, table);
  return { table, line, keyLine, path, problems };
}

function hookName(place: HookPlace, table: Record<string, unknown>): string {
  const identity = [table['command'], table['url'], table['prompt']].find((value) => typeof value === 'string') as string | undefined;
  const text = identity ?? String(table['type'] ?? 'hook');
  const shown = Array.from(text).length <= NAME_CHARACTERS ? text : `${firstCharacters(text, NAME_CHARACTERS)}…#${hash(text)}`;
  return `${place.event}:${place.label}:${shown}`;
}

// FNV-1a (32 bits) in hex: tells apart long commands that share their first characters in a name.
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, '0');
}

// A type's keys under the names a settings file uses (`allowedEnvVars`), for the JSON Schema.
function claudeKeys(keys: Readonly<Record<string, GenericSchema>>): Record<string, GenericSchema> {
  const renamed: Record<string, GenericSchema> = {};
  for (const [key, schema] of Object.entries(keys)) renamed[Object.entries(RENAMED).find(([, canonical]) => canonical === key)?.[0] ?? key] = schema;
  return {
    ...renamed,
    timeout: v.optional(v.pipe(v.number(), v.gtValue(0), v.maxValue(3600), v.description('Seconds before the hook is stopped.'))),
    async: v.optional(v.pipe(v.boolean(), v.description('Run in the background: the host does not wait, and the answer is ignored.'))),
    statusMessage: v.optional(v.string()),
    once: v.optional(v.boolean()),
    on_error: v.optional(v.pipe(v.picklist(['proceed', 'block']), v.description('Hookline: "block" makes a failing hook (exit code other than 0 and 2, timeout, crash) block instead of letting the action through.'))),
    sandbox: v.optional(v.pipe(v.boolean(), v.description('Hookline: run in the configured sandbox (default false, as Claude Code runs hooks).'))),
    name: v.optional(v.pipe(v.string(), v.description('Hookline: a name for reports, explain and layering.'))),
    enabled: v.optional(v.boolean()),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
