import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { ConfigDialect, DialectHook } from '../../config/config-dialect.ts';
import { worded } from '../../config/form-wording.ts';
import { nearestWord } from '../../config/nearest-word.ts';
import type { SourceLines } from '../../config/source-lines.ts';
import { withRules } from '../../config/ruled-schema.ts';
import type { HookKeyProblem, HookTypeDeclaration } from '../../plugins/runner-type.ts';
import {
  CLAUDE_OWN_KEYS,
  CLAUDE_TYPES,
  claudeHookKeys,
  claudeName,
  claudeRule,
  fillTls,
  RENAMED,
} from './claude-hook-keys.ts';
import { claudeHookName } from './claude-hook-name.ts';
import { claudeMatcher } from './claude-matcher.ts';

const GROUP_FORM = '{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}';

/** A group's `matcher`: which tools (or sources, triggers, …) its hooks run for. */
const GROUP_MATCHER = worded(
  v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Tool names (exact: "Bash", "Edit|Write"), a regular expression ("mcp__.*"), or "*"/"" for all. SessionStart: source; PreCompact: trigger; Notification: notification_type; SubagentStart/Stop: agent_type; SessionEnd: reason.',
      ),
    ),
  ),
  {
    wrongType: (where) => ({
      message: `\`${where}\` must be a string`,
      fix: 'write "matcher": "Bash", "Edit|Write", "mcp__.*", or leave it out to match everything',
    }),
  },
);

/** A matcher group: its matcher, and the hooks that run when it matches. */
function matcherGroup(hook: GenericSchema) {
  const hooks = worded(v.array(hook), {
    wrongType: (where) => ({ message: `\`${where}\` must be an array of hooks`, fix: `write ${GROUP_FORM}` }),
  });
  return worded(v.strictObject({ matcher: GROUP_MATCHER, hooks }), {
    wrongType: (where) => ({ message: `\`${where}\` must be an object`, fix: `write ${GROUP_FORM}` }),
    unknownKey: (key, where, known) => {
      const near = nearestWord(key, known);
      return {
        message: `unknown key \`${key}\` in \`${where}\``,
        fix:
          near === undefined
            ? `a matcher group has only "matcher" and "hooks": ${GROUP_FORM}`
            : `did you mean "${near}"?`,
      };
    },
  });
}

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
  hooksSchema(preset, schemas) {
    const variants = Object.entries(installedClaudeTypes(schemas?.types ?? {})).map(([type, declared]) =>
      withRules(
        v.strictObject({ type: v.literal(type), ...claudeHookKeys(declared.options.entries) }),
        (declared.rules ?? []).map(claudeRule),
      ),
    );
    const hook = schemas === undefined ? v.unknown() : variants.length === 1 ? variants[0]! : v.union(variants);
    const groups = worded(v.array(matcherGroup(hook)), {
      wrongType: (where, event) => ({
        message: `\`${where}\` must be an array of matcher groups`,
        fix: `write "${String(event)}": [${GROUP_FORM}]`,
      }),
    });
    const events = preset.events.map((event) => event.name);
    return worded(v.strictObject(Object.fromEntries(events.map((event) => [event, v.optional(groups)]))), {
      wrongType: () => ({
        message: '`hooks` must be an object keyed by event name',
        fix: `write "hooks": {"PreToolUse": [${GROUP_FORM}]}`,
      }),
      unknownKey: (event) => {
        const near = nearestWord(event, events);
        return {
          message: `unknown event "${event}" for preset "${preset.name}"`,
          fix: `${near === undefined ? '' : `did you mean "${near}"? `}valid events: ${events.join(', ')}`,
        };
      },
    });
  },
  readHooks({ data, lines }, preset, schemas) {
    // Known only once the runners are: the installed types a settings file may use, and their keys.
    const types = schemas === undefined ? undefined : installedClaudeTypes(schemas.types);
    const keys =
      types === undefined
        ? undefined
        : {
            types,
            names: [
              'type',
              ...new Set(
                Object.values(types).flatMap((declared) => Object.keys(claudeHookKeys(declared.options.entries))),
              ),
            ],
          };
    const hooks = data['hooks'];
    const read: DialectHook[] = [];
    const seen = new Set<string>();
    // Parts the form refuses (an unknown event, a group that is not an object, …) are skipped: the
    // form's issues name them.
    for (const [event, groups] of isObject(hooks) ? Object.entries(hooks) : []) {
      const spec = preset.events.find((candidate) => candidate.name === event);
      if (spec === undefined || !Array.isArray(groups)) continue;
      for (const [groupIndex, group] of groups.entries()) {
        const groupPath = ['hooks', event, groupIndex];
        const groupLine = lines.at(groupPath) ?? lines.at(['hooks', event]) ?? 1;
        if (!isObject(group) || !v.is(GROUP_MATCHER, group['matcher']) || !Array.isArray(group['hooks'])) continue;
        const matcher = group['matcher'];
        // An event without matcher support ignores the matcher, as Claude Code does.
        const pattern = spec.matcherFields?.length === 0 ? undefined : claudeMatcher(matcher);
        const label = matcher === undefined || matcher.trim() === '' ? '*' : matcher.trim();
        for (const [hookIndex, entry] of group['hooks'].entries()) {
          const hook = claudeHook(entry, {
            event,
            matcher: pattern,
            label,
            path: [...groupPath, 'hooks', hookIndex],
            lines,
            fallbackLine: groupLine,
            keys,
          });
          const name = isObject(hook.table) ? hook.table['name'] : undefined;
          // The same hook twice in one file runs once in Claude Code; here it is simply read once.
          if (typeof name === 'string' && seen.has(name) && isObject(entry) && entry['name'] === undefined) continue;
          if (typeof name === 'string') seen.add(name);
          read.push(hook);
        }
      }
    }
    // Claude Code's switch for every hook; layering keeps it from reaching more trusted files.
    return { hooks: read, issues: [], ...(data['disableAllHooks'] === true ? { disablesAllHooks: true } : {}) };
  },
};

/** The installed types a settings file may use. */
function installedClaudeTypes(
  types: Readonly<Record<string, HookTypeDeclaration>>,
): Record<string, HookTypeDeclaration> {
  return Object.fromEntries(CLAUDE_TYPES.flatMap((type) => (types[type] === undefined ? [] : [[type, types[type]]])));
}

/** Where a hook stands in its file, for names and lines. */
interface HookPlace {
  readonly event: string;
  readonly matcher: string | undefined;
  /** The matcher as written, for the effective name. */
  readonly label: string;
  readonly path: ReadonlyArray<string | number>;
  readonly lines: SourceLines;
  readonly fallbackLine: number;
  /** The installed types and the keys a hook of them may hold, when the runners are known. */
  readonly keys: ClaudeKeys | undefined;
}

function claudeHook(entry: unknown, place: HookPlace): DialectHook {
  const line = place.lines.at(place.path) ?? place.fallbackLine;
  const path = place.path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
  const keyLine = (key: string): number | undefined => {
    if (key === 'matcher') return place.lines.at([...place.path.slice(0, -2), 'matcher']);
    return place.lines.at([...place.path, claudeName(key)]);
  };
  if (!isObject(entry)) return { table: entry, line, keyLine, path };
  const problems: HookKeyProblem[] = [];
  const warnings: string[] = [];
  const table: Record<string, unknown> = { event: place.event };
  if (place.matcher !== undefined) table['matcher'] = place.matcher;
  const known = knownKeys(entry, place.keys);
  for (const [key, value] of Object.entries(entry)) {
    if (known !== undefined && !known.includes(key)) {
      const near = nearestWord(key, known);
      problems.push({
        key,
        message: `unknown key \`${key}\` in a Claude Code hook`,
        fix: near === undefined ? `remove it (keys of a hook: ${known.join(', ')})` : `did you mean "${near}"?`,
      });
      continue;
    }
    const own = Object.hasOwn(CLAUDE_OWN_KEYS, key) ? CLAUDE_OWN_KEYS[key]! : undefined;
    if (own === undefined) {
      table[Object.hasOwn(RENAMED, key) ? RENAMED[key]! : key] = value;
      continue;
    }
    const checked = v.safeParse(own.schema, value);
    if (!checked.success) {
      problems.push({
        key: own.becomes?.key ?? key,
        message: `\`${key}\` ${checked.issues[0].message}, got ${JSON.stringify(value)}`,
        ...(own.fix === undefined ? {} : { fix: own.fix }),
      });
    } else if (own.becomes !== undefined) {
      table[own.becomes.key] = own.becomes.value(value as never);
      const note = value === undefined ? undefined : own.note?.(value as never);
      if (note !== undefined) warnings.push(`${path}: ${note}`);
    }
  }
  checkClaudeType(table['type'], table['command'], problems);
  fillTls(table);
  if (table['name'] === undefined) table['name'] = claudeHookName(place.event, place.label, table);
  return { table, line, keyLine, path, problems, ...(warnings.length === 0 ? {} : { warnings }) };
}

/** The hook has a type (or a `command`, which makes it one), and Hookline supports it. */
function checkClaudeType(type: unknown, command: unknown, problems: HookKeyProblem[]): void {
  if (type === undefined && command === undefined) {
    problems.push({
      key: 'type',
      message: 'the hook has no `type`',
      fix: `add "type": ${CLAUDE_TYPES.map((name) => `"${name}"`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`,
    });
  } else if (type !== undefined && (typeof type !== 'string' || !CLAUDE_TYPES.includes(type))) {
    const near = typeof type === 'string' ? nearestWord(type, CLAUDE_TYPES) : undefined;
    problems.push({
      key: 'type',
      message: `unsupported hook type ${JSON.stringify(type)}`,
      fix: `${near === undefined ? '' : `did you mean "${near}"? `}supported types: ${CLAUDE_TYPES.join(', ')}`,
    });
  }
}

/** The installed Claude Code types, and every key a hook of one of them may hold. */
interface ClaudeKeys {
  readonly types: Readonly<Record<string, HookTypeDeclaration>>;
  readonly names: readonly string[];
}

// The keys a hook may hold: those of every installed Claude Code type (a key of another type is then
// named by the hook-type check) and `type`; undefined when the types are unknown, or the hook's is
// not installed (the type check says so, and the keys wait until it is).
function knownKeys(entry: Record<string, unknown>, keys: ClaudeKeys | undefined): readonly string[] | undefined {
  const type = entry['type'] ?? 'command';
  return keys === undefined || typeof type !== 'string' || !Object.hasOwn(keys.types, type) ? undefined : keys.names;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
