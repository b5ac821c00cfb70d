// The loader and the JSON Schema (`hookline schema`) are two readings of one description of a valid
// config. This test runs every config the repository ships — examples, the docs' TOML snippets, the
// starters `hookline init` writes, the CLI's valid fixtures — and a corpus of invalid configs, one
// per rule, through both: core's loader (as every command loads) and a standard JSON Schema validator
// (ajv, draft-07 as the schema declares). They must agree, except for the rules only the loader can
// check, listed in @hookline/core's README ("Rules only the loader checks") and in LOADER_ONLY below.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInPresets, configJsonSchema, HooklineError, type ConfigError } from '@hookline/core';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, describe, expect, test } from 'vitest';
import { sandboxSettingsTables } from '../plugins/sandbox-settings-tables.ts';
import { loadRunnerSetup, loadSetup } from './load-setup.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'hookline-agreement-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Rules the loader checks and JSON Schema cannot state, by the loader message that names them. */
const LOADER_ONLY = {
  'matcher-re2': /invalid regular expression in `matcher`/,
  'duplicate-name': /has the same effective name/,
  'header-variable': /references \$\w+, but \w+ is not listed in allowed_env_vars/,
  'url-parse': /is not a valid absolute URL|must be an http\(s\) URL|carries credentials/,
  'script-syntax': /syntax error in `script`/,
  'model-alias': /unknown model alias/,
  // Unknown top-level keys are only warnings; the ones that are issues are near misses.
  'near-miss-key': /unknown top-level key/,
  'byte-size-minimum': /must be at least .* bytes/,
  'docker-mount': /\[sandbox\.docker\] `mounts\[\d+\]`/,
} as const;
type LoaderOnlyRule = keyof typeof LOADER_ONLY;

interface ConfigCase {
  readonly name: string;
  readonly text: string;
  /** The file name, which decides the syntax (`.json`) and, for Claude Code settings, the preset. */
  readonly file?: string;
}

interface InvalidCase extends ConfigCase {
  /** The rule only the loader checks, when the JSON Schema cannot refuse this config. */
  readonly loaderOnly?: LoaderOnlyRule;
}

/** What the loader and the JSON Schema say of one config file. */
async function judge(config: ConfigCase): Promise<{ loader: readonly string[]; schema: readonly string[] }> {
  const dir = mkdtempSync(join(folder, 'case-'));
  const path = join(dir, config.file ?? 'hookline.toml');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, config.text);
  // As `hookline validate` loads: every installed runner, so every declared table is checked.
  const options = { configFiles: [path], cwd: dir, env: {}, allRunners: true };
  let loader: readonly string[];
  try {
    // Presets that keep valid hooks running (agent, claude) load past problems and list them instead.
    const loaded = await loadSetup(options);
    loader = (loaded.config.problems ?? []).map((issue) => `${issue.line ?? '-'}: ${issue.message}`);
  } catch (error) {
    if (!(HooklineError.isInstance(error) && error.code === 'HOOKLINE_CONFIG_INVALID')) throw error;
    loader = (error as ConfigError).issues.map((issue) => `${issue.line ?? '-'}: ${issue.message}`);
  }
  // What `hookline schema --config FILE` prints for this file.
  const setup = await loadRunnerSetup(options);
  const tables = [...setup.settingsTables, ...(await sandboxSettingsTables(setup.sources, setup.folders, true))];
  const schema = configJsonSchema(setup.runners, builtInPresets.presetFor(setup.sources).name, tables);
  const validate = validatorFor(schema);
  const valid = validate(setup.sources[0]!.data);
  return {
    loader,
    schema: valid ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`),
  };
}

// Most cases share one of a few schemas (one per preset and set of tables): each is compiled once.
const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();
function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) validators.set(key, (validate = ajv.compile(schema)));
  return validate;
}

function docsConfigs(): Array<ConfigCase & { readonly invalid: boolean }> {
  const docs = join(ROOT, 'docs');
  const found: Array<ConfigCase & { invalid: boolean }> = [];
  for (const page of readdirSync(docs).filter((name) => name.endsWith('.md'))) {
    const lines = readFileSync(join(docs, page), 'utf8').split('\n');
    for (let index = 0; index < lines.length; index++) {
      const info = /^```(toml(?: invalid)?)\s*$/.exec(lines[index]!)?.[1];
      if (info === undefined) continue;
      const end = lines.indexOf('```', index + 1);
      const text = `${lines.slice(index + 1, end).join('\n')}\n`;
      // A snippet naming plugins needs them installed next to it (the docs' own test does that).
      if (!/^plugins\s*=/m.test(text))
        found.push({ name: `docs/${page}:${index + 1}`, text, invalid: info === 'toml invalid' });
      index = end;
    }
  }
  return found;
}

/** A Claude Code settings file with one http hook of these keys. */
function claudeHttp(keys: Readonly<Record<string, string>>): string {
  return `${JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'http', ...keys }] }] } }, null, 2)}\n`;
}

const VALID: readonly ConfigCase[] = [
  {
    name: 'examples/workflow-host/hookline.toml',
    text: readFileSync(join(ROOT, 'examples/workflow-host/hookline.toml'), 'utf8'),
  },
  { name: 'hookline init (arc)', text: builtInPresets.get('arc')!.starter!.text({ remote: '' }) },
  { name: 'hookline init --preset task', text: builtInPresets.get('task')!.starter!.text({ remote: 'origin' }) },
  { name: 'hookline init --preset agent', text: builtInPresets.get('agent')!.starter!.text({ remote: '' }) },
  {
    name: 'hookline init --preset claude',
    text: builtInPresets.get('claude')!.starter!.text({ remote: '' }),
    file: '.claude/settings.json',
  },
  {
    name: 'test-fixtures/claude-corpus settings',
    text: readFileSync(
      fileURLToPath(new URL('../../test-fixtures/claude-corpus/project/.claude/settings.json', import.meta.url)),
      'utf8',
    ),
    file: '.claude/settings.json',
  },
  {
    name: 'settings tables, snake_case',
    text: '[models]\njudge = "claude-opus-5-5"\n\n[sandbox]\nprovider = "docker"\n\n[sandbox.docker]\nread_only = true\nmemory = "1g"\n\n[sandbox.bubblewrap]\nkill_grace_ms = 500\n',
  },
  {
    name: 'http with tls = "off" may use http://',
    text: '[[hooks]]\nevent = "run_start"\ntype = "http"\nurl = "http://127.0.0.1:9/x"\ntls = "off"\n',
  },
  {
    name: 'a script hook with inline script',
    text: '[[hooks]]\nevent = "stage_start"\ntype = "script"\nscript = "return true"\n',
  },
  {
    name: 'a script hook with a file',
    text: '[[hooks]]\nevent = "stage_start"\ntype = "script"\nfile = "./policy.js"\n',
  },
  {
    name: 'durable on an event that does not block',
    text: '[[hooks]]\nevent = "stage_complete"\ncommand = "true"\ndurable = true\n',
  },
  {
    name: 'durable on a blocking event made non-blocking',
    text: '[[hooks]]\nevent = "stage_start"\ncommand = "true"\nblocking = false\ndurable = true\n',
  },
  {
    name: 'agent: tool_name on a canonical hook',
    text: 'preset = "agent"\n\n[[hooks]]\nevent = "pre_tool_use"\ntool_name = "Bash"\ncommand = "true"\n',
  },
  {
    name: 'agent: an http action with method = "post" (any case)',
    text: 'preset = "agent"\n\n[[hooks]]\nevent = "post_tool_use"\n[hooks.action]\ntype = "http"\nurl = "https://x.example"\nmethod = "post"\n',
  },
  {
    name: "claude: a command hook with Hookline's env_passthrough",
    text: `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', env_passthrough: ['NPM_TOKEN'] }] }] } })}\n`,
    file: '.claude/settings.json',
  },
  {
    name: 'claude: an http hook over http:// without tls (turned off for it)',
    text: claudeHttp({ url: 'http://127.0.0.1:9/hook' }),
    file: '.claude/settings.json',
  },
  {
    name: 'claude: an http hook over http:// with tls = "off"',
    text: claudeHttp({ url: 'http://127.0.0.1:9/hook', tls: 'off' }),
    file: '.claude/settings.json',
  },
  {
    name: 'claude: an http hook over https:// with tls = "verify"',
    text: claudeHttp({ url: 'https://hooks.example/x', tls: 'verify' }),
    file: '.claude/settings.json',
  },
  ...docsConfigs().filter((config) => !config.invalid),
];

const hook = (keys: string): string => `[[hooks]]\nevent = "stage_start"\n${keys}\n`;

/** One config per rule; each breaks exactly that rule. */
const INVALID: readonly InvalidCase[] = [
  { name: 'unknown event', text: '[[hooks]]\nevent = "stage_strat"\ncommand = "true"\n' },
  { name: 'unknown hook type', text: hook('type = "webhook"\nurl = "https://x.example"') },
  { name: 'unknown key in a hook', text: hook('command = "true"\nblockng = true') },
  { name: 'command with another type', text: hook('type = "http"\nurl = "https://x.example"\ncommand = "true"') },
  { name: 'missing required key', text: hook('type = "http"') },
  { name: 'a hook without a type', text: hook('name = "x"') },
  { name: 'timeout_ms out of range', text: hook('command = "true"\ntimeout_ms = 0') },
  { name: 'timeout_ms not an integer', text: hook('command = "true"\ntimeout_ms = 1.5') },
  { name: 'a boolean that is not', text: hook('command = "true"\nblocking = "yes"') },
  { name: 'on_error outside its choices', text: hook('command = "true"\non_error = "ignore"') },
  { name: 'an empty name', text: hook('command = "true"\nname = ""') },
  { name: 'http:// with TLS on', text: hook('type = "http"\nurl = "http://hooks.example/x"') },
  {
    name: 'http:// with tls = "no_verify"',
    text: hook('type = "http"\nurl = "HTTP://hooks.example/x"\ntls = "no_verify"'),
  },
  { name: 'an unknown tls mode', text: hook('type = "http"\nurl = "https://hooks.example/x"\ntls = "maybe"') },
  { name: 'max_tool_rounds out of range', text: hook('type = "agent"\nprompt = "x"\nmax_tool_rounds = 0') },
  { name: 'unknown preset', text: 'preset = "ark"\n' },
  { name: 'plugins not a list', text: 'plugins = "hookline-runner-ntfy"\n' },
  { name: 'sandbox not a table', text: 'sandbox = "docker"\n' },
  { name: 'an empty sandbox provider', text: '[sandbox]\nprovider = ""\n' },
  { name: 'hooks not an array', text: 'hooks = "x"\n' },
  { name: 'unknown [sandbox.docker] setting', text: '[sandbox.docker]\nimag = "alpine"\n' },
  { name: 'a [sandbox.docker] value of the wrong type', text: '[sandbox.docker]\nread_only = "yes"\n' },
  { name: 'unknown [sandbox.bubblewrap] setting', text: '[sandbox.bubblewrap]\nwriteable = ["x"]\n' },
  { name: 'a bad [models] alias', text: '[models]\n"two words" = "claude-x"\n' },
  { name: 'task: unknown point', text: 'preset = "task"\n\n[hooks]\nafter_merg = ["true"]\n' },
  { name: 'task: a point that is not a list', text: 'preset = "task"\n\n[hooks]\nafter_merge = "true"\n' },
  { name: 'task: a command line of only spaces', text: 'preset = "task"\n\n[hooks]\nafter_merge = ["   "]\n' },
  {
    name: 'agent: unknown action type',
    text: 'preset = "agent"\n\n[[hooks]]\nevent = "post_tool_use"\n[hooks.action]\ntype = "python"\ncommand = "x"\n',
  },
  {
    name: 'agent: a method other than POST',
    text: 'preset = "agent"\n\n[[hooks]]\nevent = "post_tool_use"\n[hooks.action]\ntype = "http"\nurl = "https://x.example"\nmethod = "GET"\n',
  },
  {
    name: 'agent: an http action over http://',
    text: 'preset = "agent"\n\n[[hooks]]\nevent = "post_tool_use"\n[hooks.action]\ntype = "http"\nurl = "http://x.example"\n',
  },
  {
    name: 'claude: a zero timeout',
    text: '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 0}]}]}}\n',
    file: '.claude/settings.json',
  },
  {
    name: 'claude: an http hook over http:// with tls = "verify"',
    text: claudeHttp({ url: 'http://127.0.0.1:9/hook', tls: 'verify' }),
    file: '.claude/settings.json',
  },
  {
    name: 'claude: an http hook over http:// with tls = "no_verify"',
    text: claudeHttp({ url: 'http://127.0.0.1:9/hook', tls: 'no_verify' }),
    file: '.claude/settings.json',
  },
  { name: "durable on a hook that blocks by its event's default", text: hook('command = "true"\ndurable = true') },
  {
    name: 'durable on a hook that says it blocks',
    text: '[[hooks]]\nevent = "stage_complete"\ncommand = "true"\nblocking = true\ndurable = true\n',
  },
  { name: 'a script hook with neither script nor file', text: hook('type = "script"') },
  {
    name: 'a script hook with both script and file',
    text: hook('type = "script"\nscript = "return true"\nfile = "./policy.js"'),
  },
  {
    name: 'agent: tool_name with a matcher',
    text: 'preset = "agent"\n\n[[hooks]]\nevent = "post_tool_use"\ntool_name = "Bash"\nmatcher = "x"\n[hooks.action]\ntype = "shell"\ncommand = "true"\n',
  },
  {
    name: 'agent: tool_name with a matcher on a canonical hook',
    text: 'preset = "agent"\n\n[[hooks]]\nevent = "pre_tool_use"\ntool_name = "Bash"\nmatcher = "B.*"\ncommand = "true"\n',
  },
  {
    name: 'claude: an unknown event',
    text: '{"hooks": {"PreToolUs": [{"hooks": [{"type": "command", "command": "true"}]}]}}\n',
    file: '.claude/settings.json',
  },
  // Rules only the loader checks: the JSON Schema accepts these.
  {
    name: 'a matcher that is not RE2',
    text: hook('command = "true"\nmatcher = "(a)\\\\1"'),
    loaderOnly: 'matcher-re2',
  },
  {
    name: 'two hooks with one effective name',
    text: `${hook('command = "true"')}${hook('command = "true"')}`,
    loaderOnly: 'duplicate-name',
  },
  {
    name: 'a header variable not allowed',
    text: hook('type = "http"\nurl = "https://x.example"\nheaders = { Authorization = "Bearer $TOKEN" }'),
    loaderOnly: 'header-variable',
  },
  {
    name: 'a url with credentials',
    text: hook('type = "http"\nurl = "https://user:pw@x.example"'),
    loaderOnly: 'url-parse',
  },
  { name: 'a script syntax error', text: hook('type = "script"\nscript = "return ("'), loaderOnly: 'script-syntax' },
  {
    name: 'an unknown model alias',
    text: hook('type = "prompt"\nprompt = "x"\nmodel = "jugde"'),
    loaderOnly: 'model-alias',
  },
  {
    name: 'a near miss of a top-level key',
    text: '[[hook]]\nevent = "stage_start"\ncommand = "true"\n',
    loaderOnly: 'near-miss-key',
  },
  {
    name: 'a memory size below the minimum',
    text: '[sandbox.docker]\nmemory = "1k"\n',
    loaderOnly: 'byte-size-minimum',
  },
  {
    name: 'a docker mount that does not parse',
    text: '[sandbox.docker]\nmounts = ["nocolon"]\n',
    loaderOnly: 'docker-mount',
  },
];

describe.each(VALID)('valid: $name', (config) => {
  test('the loader and the JSON Schema both accept it', async () => {
    const { loader, schema } = await judge(config);
    expect(loader, 'loader issues').toEqual([]);
    expect(schema, 'JSON Schema errors').toEqual([]);
  });
});

describe.each(docsConfigs().filter((config) => config.invalid))('docs invalid snippet: $name', (config) => {
  test('the loader rejects it, and so does the JSON Schema unless every issue is a loader-only rule', async () => {
    const { loader, schema } = await judge(config);
    expect(loader.length).toBeGreaterThan(0);
    if (schema.length === 0)
      for (const issue of loader)
        expect(
          Object.values(LOADER_ONLY).some((rule) => rule.test(issue)),
          issue,
        ).toBe(true);
  });
});

describe.each(INVALID)('invalid: $name', (config) => {
  test(
    config.loaderOnly === undefined
      ? 'the loader and the JSON Schema both reject it'
      : `only the loader rejects it (${config.loaderOnly})`,
    async () => {
      const { loader, schema } = await judge(config);
      expect(loader.length, 'loader issues').toBeGreaterThan(0);
      if (config.loaderOnly === undefined) {
        expect(schema.length, `JSON Schema accepts what the loader refuses: ${loader.join('; ')}`).toBeGreaterThan(0);
      } else {
        // The known difference is this one rule: once the schema can say it, move it out of the list.
        expect(schema, 'JSON Schema errors').toEqual([]);
        expect(
          loader.every((issue) => LOADER_ONLY[config.loaderOnly!].test(issue)),
          loader.join('; '),
        ).toBe(true);
      }
    },
  );
});

test('the corpus has at least 20 invalid configs, and every loader-only rule is tried', () => {
  expect(INVALID.length).toBeGreaterThanOrEqual(20);
  expect(new Set(INVALID.flatMap((config) => config.loaderOnly ?? []))).toEqual(new Set(Object.keys(LOADER_ONLY)));
});
