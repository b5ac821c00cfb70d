import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { PluginError } from '../errors/plugin-error.ts';
import { defineRunner } from '../plugins/runner.ts';
import { defineSettingsTable } from '../plugins/settings-table.ts';
import { scriptedRunner } from '../testing/scripted-runner.ts';
import { loadConfig } from './load-config.ts';
import { configIssues } from '../../test-support/config-issues.ts';

const scripted = scriptedRunner();
// A runner with required keys and a cross-key check, to prove runner schemas and checks are composed.
const webhook = defineRunner({
  name: 'hookline-runner-webhook-test',
  types: {
    webhook: {
      options: v.object({ target: v.pipe(v.string(), v.url('must be a URL')), insecure: v.optional(v.boolean()) }),
      defaultTimeoutMs: 1000,
      defaultOnError: 'proceed',
      usesSandbox: false,
      identity: (options) => String(options.target),
      check: (options) =>
        options.target.startsWith('https://') || options.insecure === true
          ? []
          : [{ key: 'target', message: '`target` must be https:// unless insecure = true' }],
      doRun: async () => ({ status: 'ok', decision: { decision: 'proceed' } }),
    },
  },
});
const runners = [scripted, webhook];

function load(...texts: string[]) {
  return loadConfig(
    texts.map((text, index) => ({ text, source: `layer${index}.toml` })),
    { runners },
  );
}

function issuesOf(...texts: string[]): string[] {
  return configIssues(() => load(...texts));
}

describe('loadConfig validation', () => {
  test('malformed TOML names the line and column', () => {
    const [issue] = issuesOf('[[hooks]]\nevent = "run_start"\ntype = "scripted\n');
    expect(issue).toMatch(/^layer0\.toml:3: invalid TOML at column \d+/);
  });

  test('an unknown event lists the valid ones and suggests the nearest', () => {
    const [issue] = issuesOf('[[hooks]]\nname = "guard"\nevent = "stage_strat"\ntype = "scripted"\n');
    expect(issue).toContain('layer0.toml:3: hooks[0] "guard": unknown event "stage_strat" for preset "arc"');
    expect(issue).toContain('did you mean "stage_start"?');
    expect(issue).toContain('valid events: run_start, run_complete');
  });

  test('an unknown type lists installed runners and names the package that provides it', () => {
    const [http] = issuesOf('[[hooks]]\nevent = "run_start"\ntype = "http"\nurl = "https://example.test"\n');
    expect(http).toContain('layer0.toml:3: hooks[0] "run_start:http": unknown hook type "http"');
    expect(http).toContain('install @hookline/runner-http');
    expect(http).toContain('installed types: scripted, webhook');
    const [custom] = issuesOf('[[hooks]]\nevent = "run_start"\ntype = "ntfy"\n');
    expect(custom).toContain('list it in plugins = [...]');
    const [command] = issuesOf('[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
    expect(command).toContain('unknown hook type "command" — install @hookline/runner-command');
  });

  test('an unknown key suggests the nearest, or the type it belongs to', () => {
    const issues = issuesOf(
      '[[hooks]]\nevent = "run_start"\ntype = "scripted"\nblockng = true\ntarget = "https://x.test"\n',
    );
    expect(issues).toEqual([
      'layer0.toml:4: hooks[0] "run_start:scripted:proceed:": unknown key `blockng` for a scripted hook — did you mean `blocking`?',
      'layer0.toml:5: hooks[0] "run_start:scripted:proceed:": unknown key `target` for a scripted hook — `target` belongs to webhook hooks; remove it or set type = "webhook"',
    ]);
  });

  test('`command` together with another type is an error', () => {
    const issues = issuesOf('[[hooks]]\nevent = "run_start"\ntype = "scripted"\ncommand = "make"\n');
    expect(issues[0]).toContain('layer0.toml:4: hooks[0]');
    expect(issues[0]).toContain('`command` cannot be used with type = "scripted"');
  });

  test("missing required keys are named, including a type's own", () => {
    expect(issuesOf('[[hooks]]\ntype = "scripted"\n')).toEqual([
      'layer0.toml:1: hooks[0] "?:scripted": missing required key `event` — add event = …',
    ]);
    expect(issuesOf('[[hooks]]\nevent = "run_start"\ntype = "webhook"\n')[0]).toContain(
      'missing required key `target`',
    );
    expect(issuesOf('[[hooks]]\nevent = "run_start"\n')[0]).toContain('the hook has no type — add `command = "…"`');
  });

  test('an invalid matcher regex is reported with the pattern error', () => {
    const [issue] = issuesOf('[[hooks]]\nevent = "stage_start"\ntype = "scripted"\nmatcher = "agent(["\n');
    expect(issue).toMatch(/layer0\.toml:4: .*invalid regular expression in `matcher`/);
  });

  test.each(['0', '3600001', '1.5', '"30s"', '-5'])('timeout_ms = %s is rejected', (value) => {
    const [issue] = issuesOf(`[[hooks]]\nevent = "run_start"\ntype = "scripted"\ntimeout_ms = ${value}\n`);
    expect(issue).toContain('layer0.toml:4:');
    expect(issue).toContain('`timeout_ms` must be an integer from 1 to 3600000 (milliseconds)');
  });

  test('wrong value types name the key and the expectation', () => {
    const issues = issuesOf(
      '[[hooks]]\nevent = "run_start"\ntype = "scripted"\nblocking = "yes"\non_error = "ignore"\n',
    );
    expect(issues).toEqual([
      expect.stringContaining(
        'layer0.toml:4: hooks[0] "run_start:scripted:proceed:": `blocking` must be true or false',
      ),
      expect.stringContaining(
        'layer0.toml:5: hooks[0] "run_start:scripted:proceed:": `on_error` must be "proceed" or "block"',
      ),
    ]);
  });

  test("a runner's cross-key check is reported at the key's line", () => {
    const [issue] = issuesOf(
      '[[hooks]]\nname = "notify"\nevent = "run_complete"\ntype = "webhook"\n\ntarget = "http://example.test/x"\n',
    );
    expect(issue).toBe('layer0.toml:6: hooks[0] "notify": `target` must be https:// unless insecure = true');
  });

  test('unknown top-level keys warn, near misses of known keys are errors', () => {
    const config = load('[server]\nport = 8080\n\n[[hooks]]\nevent = "run_start"\ntype = "scripted"\n');
    expect(config.warnings).toEqual([
      'layer0.toml:1: ignoring unknown top-level key `server` (Hookline reads only preset, plugins, sandbox, hooks)',
    ]);
    expect(issuesOf('[[hook]]\nevent = "run_start"\ntype = "scripted"\n')).toEqual([
      'layer0.toml:1: unknown top-level key `hook` — did you mean `hooks`? Hooks are written as [[hooks]] tables.',
    ]);
    expect(issuesOf('prest = "arc"\n')[0]).toContain('did you mean `preset`?');
  });

  test("a plugin's declared settings tables are known keys, not warnings", () => {
    const models = defineSettingsTable({
      path: 'models',
      description: 'aliases',
      schema: v.record(v.string(), v.string()),
    });
    const config = loadConfig([{ text: '[models]\njudge = "claude-x"\n', source: 'm.toml' }], {
      runners: [scripted],
      settingsTables: [models],
    });
    expect(config.warnings).toEqual([]);
    expect(config.settings).toEqual({ models: { judge: 'claude-x' } });
    expect(load('[models]\njudge = "claude-x"\n').warnings).toEqual([
      expect.stringContaining('ignoring unknown top-level key `models`'),
    ]);
  });

  test('a [hooks] table in the arc preset points at the task dialect', () => {
    expect(issuesOf('[hooks]\nafter_merge = ["git push"]\n')[0]).toContain('add preset = "task"');
  });

  test('an unknown preset and a bad plugins list are errors', () => {
    expect(issuesOf('preset = "ark"\n')[0]).toContain('unknown preset "ark" — did you mean "arc"?');
    expect(issuesOf('plugins = "hookline-runner-ntfy"\n')[0]).toContain('`plugins` must be a list of package names');
  });

  test('two hooks with one effective name in one file are an error that asks for names', () => {
    const issues = issuesOf(
      '[[hooks]]\nevent = "run_start"\ntype = "scripted"\n[[hooks]]\nevent = "run_start"\ntype = "scripted"\n',
    );
    expect(issues).toEqual([
      'layer0.toml:4: hooks[1] "run_start:scripted:proceed:": another hook in this file (hooks[0], line 1) has the same effective name "run_start:scripted:proceed:" — give the two hooks distinct `name`s',
    ]);
  });

  test('a duplicate name is reported together with the other problems of the hooks that share it', () => {
    const named = issuesOf(
      '[[hooks]]\nname = "gate"\nevent = "run_start"\ntype = "scripted"\n[[hooks]]\nname = "gate"\nevent = "run_start"\ntype = "scripted"\ntimeout_ms = 0\n',
    );
    expect(named).toEqual([
      'layer0.toml:5: hooks[1] "gate": another hook in this file (hooks[0], line 1) has the same effective name "gate" — give the two hooks distinct `name`s',
      expect.stringMatching(/^layer0\.toml:9: hooks\[1\] "gate": `timeout_ms` must be/),
    ]);
    // Unnamed: the effective name comes from the type's identity, whatever else is wrong with the hook.
    const unnamed = issuesOf(
      '[[hooks]]\nevent = "run_start"\ntype = "webhook"\ntarget = "https://a.example"\nblockng = true\n[[hooks]]\nevent = "run_start"\ntype = "webhook"\ntarget = "https://a.example"\n',
    );
    expect(unnamed).toEqual([
      expect.stringMatching(/^layer0\.toml:5: hooks\[0\] "run_start:https:\/\/a\.example": unknown key `blockng`/),
      'layer0.toml:6: hooks[1] "run_start:https://a.example": another hook in this file (hooks[0], line 1) has the same effective name "run_start:https://a.example" — give the two hooks distinct `name`s',
    ]);
  });

  test('a hook missing the key its name derives from is named by event and type, and the key is named', () => {
    const issues = issuesOf(
      '[[hooks]]\nevent = "run_start"\ntype = "webhook"\n[[hooks]]\nevent = "run_start"\ntype = "webhook"\n',
    );
    // Neither has an effective name, so they are not duplicates of each other either.
    expect(issues).toEqual([
      'layer0.toml:1: hooks[0] "run_start:webhook": missing required key `target` — add target = …',
      'layer0.toml:4: hooks[1] "run_start:webhook": missing required key `target` — add target = …',
    ]);
  });

  test('every problem of every source is reported at once, sorted by line', () => {
    const issues = issuesOf(
      '[[hooks]]\nevent = "nope"\ntype = "scripted"\ntimeout_ms = 0\n[[hooks]]\nevent = "run_start"\ntype = "htp"\n',
      'this is = not toml = at all\n',
    );
    expect(issues).toHaveLength(4);
    expect(issues.map((issue) => issue.split(' ')[0])).toEqual([
      'layer0.toml:2:',
      'layer0.toml:4:',
      'layer0.toml:7:',
      'layer1.toml:1:',
    ]);
    expect(issues[2]).toContain('did you mean type = "http"? It is provided by @hookline/runner-http.');
  });

  test('the ConfigError message says nothing ran and lists each issue', () => {
    expect(() => load('[[hooks]]\nevent = "x"\ntype = "scripted"\n')).toThrow(
      /configuration has 1 problem; nothing was run:\n {2}layer0\.toml:2:/,
    );
  });

  test('a runner claiming a type twice is a plugin error', () => {
    expect(() => loadConfig([], { runners: [scriptedRunner(), scriptedRunner()] })).toThrow(PluginError);
  });
});

describe('loadConfig defaults', () => {
  test('blocking comes from the catalog, timeout and on_error from the runner type, sandbox defaults to true', () => {
    const config = load(
      '[[hooks]]\nevent = "stage_start"\ntype = "webhook"\ntarget = "https://a.test"\n[[hooks]]\nevent = "stage_complete"\ntype = "scripted"\nsandbox = false\n',
    );
    expect(
      config.hooks.map(({ name, blocking, timeoutMs, onError, sandbox, enabled }) => ({
        name,
        blocking,
        timeoutMs,
        onError,
        sandbox,
        enabled,
      })),
    ).toEqual([
      {
        name: 'stage_start:https://a.test',
        blocking: true,
        timeoutMs: 1000,
        onError: 'proceed',
        sandbox: true,
        enabled: true,
      },
      {
        name: 'stage_complete:scripted:proceed:',
        blocking: false,
        timeoutMs: 5000,
        onError: 'block',
        sandbox: false,
        enabled: true,
      },
    ]);
    expect(config.preset).toBe('arc');
    expect(config.sandbox).toEqual({ provider: 'local', settings: {} });
  });

  test('the source file, line and index of each hook are kept', () => {
    const config = load('\n\n[[hooks]]\nname = "a"\nevent = "run_start"\ntype = "scripted"\n');
    expect(config.hooks[0]?.source).toEqual({ file: 'layer0.toml', line: 3, index: 0 });
  });
});

describe('layering', () => {
  const base = [
    '[[hooks]]\nname = "first"\nevent = "run_start"\ntype = "scripted"\nreason = "base"',
    '[[hooks]]\nname = "second"\nevent = "run_start"\ntype = "scripted"',
    '[[hooks]]\nname = "third"\nevent = "run_start"\ntype = "scripted"',
  ].join('\n');

  test('a later hook with the same name replaces the earlier one in its position; new ones append', () => {
    const config = load(
      base,
      '[[hooks]]\nname = "extra"\nevent = "run_start"\ntype = "scripted"\n[[hooks]]\nname = "first"\nevent = "run_complete"\ntype = "scripted"\nreason = "run"\n',
    );
    expect(config.hooks.map((hook) => hook.name)).toEqual(['first', 'second', 'third', 'extra']);
    expect(config.hooks[0]).toMatchObject({
      event: 'run_complete',
      options: { reason: 'run' },
      source: { file: 'layer1.toml', index: 1 },
    });
  });

  test('`name` + `enabled = false` alone disables an earlier hook', () => {
    const config = load(base, '[[hooks]]\nname = "second"\nenabled = false\n');
    expect(config.hooks[1]?.disabledAt).toEqual({ file: 'layer1.toml', line: 1 });
    expect(config.hooks[1]?.source.file).toBe('layer0.toml');
    expect(config.hooks.map((hook) => [hook.name, hook.enabled])).toEqual([
      ['first', true],
      ['second', false],
      ['third', true],
    ]);
    expect(config.warnings).toEqual([]);
  });

  test('disabling a name no earlier layer has warns instead of failing', () => {
    const config = load(base, '[[hooks]]\nname = "ghost"\nenabled = false\n');
    expect(config.warnings).toEqual([
      'layer1.toml:1: hooks[0] disables "ghost", but no earlier source defines a hook of that name',
    ]);
  });

  test('unnamed hooks layer by their effective name', () => {
    const config = load(
      '[[hooks]]\nevent = "run_start"\ntype = "scripted"\n',
      '[[hooks]]\nevent = "run_start"\ntype = "scripted"\nblocking = false\n',
    );
    expect(config.hooks).toHaveLength(1);
    expect(config.hooks[0]?.blocking).toBe(false);
  });

  test('the same name in two files is layering, not a duplicate', () => {
    expect(() => load(base, base)).not.toThrow();
  });

  test('sandbox settings merge across layers and the later provider wins', () => {
    const config = load('[sandbox]\nprovider = "docker"\nimage = "a"\n', '[sandbox]\nmemory = "1g"\n');
    expect(config.sandbox).toEqual({ provider: 'docker', settings: { image: 'a', memory: '1g' } });
  });
});

describe('scale', () => {
  test('10 000 hooks load', () => {
    const text = Array.from(
      { length: 10_000 },
      (_, index) =>
        `[[hooks]]\nname = "h${index}"\nevent = "stage_complete"\ntype = "scripted"\nmatcher = "node-${index}$"\n`,
    ).join('');
    const config = load(text);
    expect(config.hooks).toHaveLength(10_000);
    expect(config.hooks[9_999]?.source.line).toBe(9_999 * 5 + 1);
  }, 30_000);
});
