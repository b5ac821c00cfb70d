import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInPresets, MAX_CONFIG_BYTES, MAX_CONFIG_STRING_BYTES, MAX_HOOKS } from '@hookline/core';

const DEFAULT_PRESET = builtInPresets.fallback.name;
import { runHookline } from './run-hookline.ts';

/** Where the generated page lives, relative to the docs folder. */
export const REFERENCE_PAGE = 'configuration.md';

/** A JSON Schema node, as far as this page reads one. */
interface Schema {
  readonly type?: string;
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly description?: string;
  readonly deprecationMessage?: string;
  readonly items?: Schema;
  readonly anyOf?: readonly Schema[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: Schema | boolean;
  readonly required?: readonly string[];
}

/** The effective defaults `hookline list --json` reports for one hook. */
interface ListedHook {
  readonly type: string;
  readonly timeout_ms: number;
  readonly on_error: string;
  readonly sandbox: boolean;
  readonly durable: boolean;
}

/** A minimal valid hook of each first-party type, to read its defaults from `hookline list`. */
const SAMPLE_KEYS: Readonly<Record<string, string>> = {
  command: 'command = "true"',
  http: 'type = "http"\nurl = "https://hooks.example.com/x"',
  prompt: 'type = "prompt"\nprompt = "x"',
  agent: 'type = "agent"\nprompt = "x"',
  script: 'type = "script"\nscript = "return true"',
};

// A preset whose host keeps its own config files (claude: Claude Code's JSON settings) is not written
// in hookline.toml: its keys are described in its guide and by `hookline schema --preset <name>`.
const TOML_PRESETS = builtInPresets.all
  .filter((preset) => preset.configFiles === undefined)
  .map((preset) => preset.name);

/**
 * Renders `configuration.md` from what `hookline schema` prints for each preset (the JSON Schema of
 * the config, with every installed first-party hook type) and from the defaults `hookline list`
 * reports — so the page changes when the schema or a default does, and a test says when the
 * committed page is stale.
 */
export async function renderConfigurationReference(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'hookline-reference-'));
  try {
    const schemas = new Map<string, Schema>();
    for (const name of TOML_PRESETS) {
      writeFileSync(join(folder, `${name}.toml`), `preset = "${name}"\n`);
      schemas.set(name, JSON.parse(await hookline(['schema', '--config', `${name}.toml`], folder)) as Schema);
    }
    const canonical = schemas.get(DEFAULT_PRESET)!;
    const variants = hookVariants(canonical);
    const types = variants.map((variant) => typeName(variant)).filter((type): type is string => type !== undefined);
    const defaults = new Map<string, ListedHook[]>();
    for (const name of TOML_PRESETS) defaults.set(name, await listDefaults(folder, name, types));
    return page(canonical, schemas, variants, types, defaults);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function hookline(args: readonly string[], cwd: string): Promise<string> {
  const result = await runHookline(args, cwd);
  if (result.code !== 0) throw new Error(`hookline ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** One hook of every type, on the preset's first non-blocking event, as `hookline list --json` resolves them. */
async function listDefaults(folder: string, presetName: string, types: readonly string[]): Promise<ListedHook[]> {
  const preset = builtInPresets.get(presetName)!;
  const event = (preset.events.find((spec) => !spec.blocking) ?? preset.events[0]!).name;
  const hooks = types
    .filter((type) => SAMPLE_KEYS[type] !== undefined)
    .map((type) => `[[hooks]]\nname = "${type}"\nevent = "${event}"\n${SAMPLE_KEYS[type]}\n`);
  const file = `${presetName}-defaults.toml`;
  writeFileSync(join(folder, file), `preset = "${presetName}"\n\n${hooks.join('\n')}`);
  return JSON.parse(await hookline(['list', '--json', '--config', file], folder)) as ListedHook[];
}

/** The hook shapes of the canonical `[[hooks]]` array: one per hook type, plus the disabling form. */
function hookVariants(schema: Schema): Schema[] {
  return [...(schema.properties?.['hooks']?.items?.anyOf ?? [])];
}

function typeName(variant: Schema): string | undefined {
  const type = variant.properties?.['type']?.const;
  return typeof type === 'string' ? type : undefined;
}

function page(
  canonical: Schema,
  schemas: ReadonlyMap<string, Schema>,
  variants: readonly Schema[],
  types: readonly string[],
  defaults: ReadonlyMap<string, readonly ListedHook[]>,
): string {
  const typed = variants.filter((variant) => typeName(variant) !== undefined);
  const common = Object.keys(typed[0]?.properties ?? {}).filter((key) =>
    typed.every((variant) => key in (variant.properties ?? {})),
  );
  const disabling = variants.find((variant) => typeName(variant) === undefined);
  const out: string[] = [];
  out.push(
    '<!-- Generated by `pnpm -F @hookline/docs reference` from `hookline schema` and `hookline list`. Do not edit: a test fails when this page is stale. -->',
    '',
    '# Configuration reference',
    '',
    "Every key a Hookline config file accepts, generated from the configuration's JSON Schema — what",
    '`hookline schema` prints, and what `packages/core/hookline.schema.json` holds for the default preset —',
    `with the hook types of the first-party runners (${types.map((type) => `\`${type}\``).join(', ')}). A third-party`,
    'runner adds its own type; `hookline schema` run next to your config includes it. For what the keys',
    'mean in practice, see [Concepts](concepts.md) and [Hook types](hook-types.md).',
    '',
    'Point your editor at the schema for completion and checks, with this as the first line of the file:',
    '',
    '```toml',
    '#:schema ./node_modules/@hookline/core/hookline.schema.json',
    '[[hooks]]',
    'event = "run_start"',
    'command = "true"',
    '```',
    '',
    '## Top level',
    '',
    keyTable(canonical.properties ?? {}, canonical.required ?? []),
    '',
    "Other top-level keys are ignored with a warning (a config file may carry a host's other settings),",
    'except near-misses of these (`[[hook]]`), which are errors. `[models]`, model aliases for LLM hooks,',
    'belongs to the LLM runner (see [Hook types](hook-types.md#prompt-and-agent)): each plugin declares its',
    'settings tables, and the loader checks them like hooks.',
    '',
    ...tableSections('', canonical.properties ?? {}),
    "A sandbox provider's settings go in `[sandbox.<provider>]`; see [Sandboxes](sandboxes.md). Settings are",
    'spelled snake_case, as hook keys are; the camelCase names of earlier versions (`readOnly`) still load,',
    'with a warning naming the new one.',
    '',
    '## Keys of every hook',
    '',
    `The \`[[hooks]]\` tables of the default preset \`${DEFAULT_PRESET}\`. A hook has the keys below and the keys of its type.`,
    '',
    keyTable(
      {
        ...pick(typed[0]?.properties ?? {}, common),
        type: { enum: types, description: 'What the hook does; each type has keys of its own, below.' },
      },
      typed.every((variant) => variant.required?.includes('event')) ? ['event'] : [],
    ),
    '',
  );
  for (const variant of typed) {
    const type = typeName(variant)!;
    const own = Object.keys(variant.properties ?? {}).filter((key) => !common.includes(key));
    const required = (variant.required ?? []).filter((key) => own.includes(key));
    out.push(`## \`type = "${type}"\``, '');
    if (!(variant.required ?? []).includes('type'))
      out.push('`type` may be left out: a hook with `command` and no `type` is a command hook.', '');
    out.push(own.length === 0 ? 'No keys of its own.' : keyTable(pick(variant.properties ?? {}, own), required), '');
    if (type === 'script') out.push('Exactly one of `script` and `file` is required.', '');
  }
  if (disabling !== undefined) {
    out.push(
      '## Disabling a hook of an earlier layer',
      '',
      'A table with only these keys disables the hook of that name that an earlier config file defined:',
      '',
      keyTable(disabling.properties ?? {}, disabling.required ?? []),
      '',
    );
  }
  out.push(...LAYERING);
  out.push('## Defaults', '');
  out.push(
    'What a hook that does not set the key gets, by preset and type, as `hookline list` reports it',
    '(an event may change `on_error`: `pre_tool_use` of preset `agent` fails closed). `sandbox = true`',
    'runs a hook in the configured sandbox provider where its type uses one; `false` runs it on the host.',
    '',
    '| preset | type | `timeout_ms` | `on_error` | `sandbox` | `durable` |',
    '|---|---|---:|---|---|---|',
  );
  for (const [name, hooks] of defaults) {
    for (const hook of hooks) {
      out.push(
        `| \`${name}\` | \`${hook.type}\` | ${hook.timeout_ms} | \`${hook.on_error}\` | \`${String(hook.sandbox)}\` | ${hook.durable ? 'yes' : 'no'} |`,
      );
    }
  }
  out.push('');
  // The bounds are core's constants, so this table cannot drift from what the loader enforces.
  out.push(
    '## Limits',
    '',
    'A config past one of these is refused with an error that names the limit, before it is parsed',
    '(file size) or validated (string size) — so a runaway or generated file fails fast and small',
    'instead of costing minutes and gigabytes.',
    '',
    '| what | at most |',
    '|---|---:|',
    `| a config file (UTF-8 bytes; the CLI does not read a larger file) | ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB |`,
    `| any string in it: a command, prompt, script, matcher, name (UTF-8 bytes) | ${MAX_CONFIG_STRING_BYTES / 1024} KiB |`,
    `| hooks in the configuration, all layers merged (disabled ones count) | ${MAX_HOOKS.toLocaleString('en-US')} |`,
    '',
    'A longer script belongs in a file the hook runs (`command = "./scripts/check.sh"`, `file = "…"` for',
    'a script hook); many similar hooks are usually one hook with a `matcher`.',
    '',
  );
  for (const [name, schema] of schemas) {
    if (name === DEFAULT_PRESET) continue;
    out.push(...presetSection(name, schema, common));
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** How layers rank and what a less trusted one may do: behaviour, not schema, so written here. */
const LAYERING: readonly string[] = [
  '## Layering',
  '',
  'Config files are layered in the order they load, and that order is their **trust**: the first is the',
  'most trusted, every later one less. Without `--config` that is the user layer',
  '(`$XDG_CONFIG_HOME/hookline/hookline.toml`) above the project file (`./hookline.toml`); with',
  '`--config a --config b`, `a` above `b` — in the order given, later = lower trust. A library host',
  'passes its sources to `loadConfig` in the same order.',
  '',
  "- A later layer's hook with the same effective name replaces the earlier one in its place, and",
  '  `name` + `enabled = false` disables it (above). Either change to a hook of an earlier layer is',
  '  **reported in every outcome** (its `warnings`, and so on stderr of `hookline emit`), by `hookline',
  '  list` (the hook is marked `changed by a later layer`, the change printed) and by `hookline explain`',
  "  (`layering` in `--json`): a project cannot quietly weaken a user's guard. Restating a hook",
  '  unchanged is not a change; new hooks are not reported.',
  '- `locked = true` on a hook forbids any later layer to change it: a replacing table, a disabling',
  '  table is **ignored**, and the attempt is',
  '  reported in every outcome the same way. It is not a config error — an error would let a project',
  '  file stop every hook from running.',
  '- Preset `claude` merges layers as Claude Code merges its settings files (`~/.claude/settings.json`,',
  "  then the project's `.claude/settings.json` and `.claude/settings.local.json`): every file's hooks",
  "  run, a later file never replaces or disables an earlier file's hook (a repeated name is kept as",
  '  `name@file`, and a repeat that differs is reported), identical hooks run once, and',
  '  `disableAllHooks: true` switches off the hooks of its own file and of less trusted ones only —',
  "  never those of the user's file, with a report in every outcome.",
  '',
];

/** How a preset's dialect shapes `hooks`, beyond the canonical tables. */
function presetSection(name: string, schema: Schema, common: readonly string[]): string[] {
  const hooks = schema.properties?.['hooks'] ?? {};
  const out = [`## Preset \`${name}\``, ''];
  const forms = hooks.anyOf ?? [hooks];
  const events = builtInPresets
    .get(name)!
    .events.map((event) => `\`${event.name}\``)
    .join(', ');
  for (const form of forms) {
    if (form.type === 'object' && form.properties !== undefined) {
      out.push(
        `\`[hooks]\` as a table: each key is an event, its value a list of shell command lines that run in order.`,
        '',
      );
      out.push(keyTable(form.properties, form.required ?? []), '');
      continue;
    }
    const variants = form.items?.anyOf ?? [];
    const special = variants.filter(
      (variant) => variant.properties !== undefined && !('type' in variant.properties) && 'event' in variant.properties,
    );
    const canonicalForm = variants.some((variant) => variant.anyOf !== undefined || typeName(variant) !== undefined);
    if (canonicalForm) out.push(`\`[[hooks]]\` tables as in the default preset, with \`event\` one of ${events}.`, '');
    for (const variant of special) {
      const own = Object.keys(variant.properties ?? {}).filter((key) => !common.includes(key));
      out.push(
        `\`[[hooks]]\` tables in this preset's own form: the keys of every hook (except \`type\`) and these:`,
        '',
        keyTable(
          pick(variant.properties ?? {}, own),
          (variant.required ?? []).filter((key) => own.includes(key)),
        ),
        '',
      );
      for (const key of own) {
        const actions = variant.properties?.[key]?.anyOf ?? [];
        for (const action of actions) {
          const kind = action.properties?.['type']?.const;
          if (typeof kind !== 'string') continue;
          const keys = Object.keys(action.properties ?? {}).filter((actionKey) => actionKey !== 'type');
          out.push(
            `\`${key}\` with \`type = "${kind}"\`:`,
            '',
            keyTable(
              pick(action.properties ?? {}, keys),
              (action.required ?? []).filter((actionKey) => keys.includes(actionKey)),
            ),
            '',
          );
        }
      }
    }
  }
  return out;
}

/** A section per table (other than `hooks`) with keys of its own, nested tables after their parent: `[sandbox]`, `[sandbox.docker]`. */
function tableSections(prefix: string, properties: Readonly<Record<string, Schema>>): string[] {
  const out: string[] = [];
  for (const [key, schema] of Object.entries(properties)) {
    if (key === 'hooks' || schema.type !== 'object' || schema.properties === undefined) continue;
    const name = `${prefix}${key}`;
    out.push(`### \`[${name}]\``, '');
    if (schema.description !== undefined) out.push(`${schema.description}`, '');
    out.push(keyTable(schema.properties, schema.required ?? []), '', ...tableSections(`${name}.`, schema.properties));
  }
  return out;
}

function pick(properties: Readonly<Record<string, Schema>>, keys: readonly string[]): Record<string, Schema> {
  return Object.fromEntries(keys.map((key) => [key, properties[key]!]));
}

function keyTable(properties: Readonly<Record<string, Schema>>, required: readonly string[]): string {
  // Former names of settings (camelCase) still load, with a warning; the page shows the current ones.
  const rows = Object.entries(properties)
    .filter(([, schema]) => schema.deprecationMessage === undefined)
    .map(
      ([key, schema]) =>
        `| \`${key}\` | ${cell(describe(schema))} | ${required.includes(key) ? 'required' : 'optional'} | ${cell(schema.description ?? '')} |`,
    );
  return ['| key | value | | |', '|---|---|---|---|', ...rows].join('\n');
}

/** A JSON Schema node in words: `"verify" \| "no_verify"`, `integer 1–3600000`, `list of strings`. */
function describe(schema: Schema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum !== undefined) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' or ');
  if (schema.anyOf !== undefined) {
    const kinds = [...new Set(schema.anyOf.map(describe))];
    return kinds.join(', or ');
  }
  switch (schema.type) {
    case 'string': {
      if (schema.pattern === '\\S') return 'string, not blank';
      if (schema.pattern === '^\\S+$') return 'string without spaces';
      if (schema.pattern !== undefined) return `string matching \`${schema.pattern}\``;
      return schema.minLength !== undefined && schema.minLength > 0 ? 'non-empty string' : 'string';
    }
    case 'integer':
    case 'number': {
      const word = schema.type === 'integer' ? 'integer' : 'number';
      if (schema.minimum !== undefined && schema.maximum !== undefined)
        return `${word} ${schema.minimum}–${schema.maximum}`;
      if (schema.minimum !== undefined) return `${word} ≥ ${schema.minimum}`;
      return word;
    }
    case 'boolean':
      return '`true` or `false`';
    case 'array':
      return schema.items === undefined ? 'list' : `list of ${plural(describe(schema.items))}`;
    case 'object':
      if (schema.properties !== undefined) return 'table';
      if (typeof schema.additionalProperties === 'object')
        return `table of ${plural(describe(schema.additionalProperties))}`;
      return 'table';
    default:
      return 'any value';
  }
}

function plural(description: string): string {
  if (description === 'table') return 'tables';
  return description.replace(/^(non-empty )?string/, (_match, prefix: string | undefined) => `${prefix ?? ''}strings`);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
