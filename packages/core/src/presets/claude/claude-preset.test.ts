import { describe, expect, test } from 'vitest';
import type { HookConfig } from '../../config/hook-definition.ts';
import { loadConfig } from '../../config/load-config.ts';
import { configHookTypes } from '../../config/config-hook-types.ts';
import { readConfigSource } from '../../config/read-config-source.ts';
import { createHookEngine } from '../../engine/create-hook-engine.ts';
import { configIssues } from '../../../test-support/config-issues.ts';
import { standInCommandRunner, standInHttpRunner } from '../../../test-support/stand-in-runners.ts';
import { claudeMatcher } from './claude-matcher.ts';

const runners = [standInCommandRunner().runner, standInHttpRunner().runner];

function settings(hooks: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] }, ...extra, hooks }, null, 2);
}

function load(...texts: string[]): HookConfig {
  return loadConfig(
    texts.map((text, index) => ({ text, source: `settings${index}.json` })),
    { runners },
  );
}

const issuesOf = (text: string): string[] => configIssues(() => load(text));

const command = (text: string, more: Record<string, unknown> = {}) => ({ type: 'command', command: text, ...more });

describe('claude settings files', () => {
  test('a JSON settings file with a hooks object is read as preset claude, other keys silently ignored', () => {
    const config = load(
      settings(
        {
          PreToolUse: [{ matcher: 'Bash', hooks: [command('exit 0', { timeout: 30 })] }],
          Stop: [{ hooks: [command('ok', { async: true, on_error: 'block' })] }],
        },
        { model: 'x', env: {} },
      ),
    );
    expect(config.preset).toBe('claude');
    expect(config.warnings).toEqual([]);
    expect(
      config.hooks.map((hook) => [
        hook.name,
        hook.event,
        hook.matcher,
        hook.timeoutMs,
        hook.blocking,
        hook.sandbox,
        hook.onError,
      ]),
    ).toEqual([
      ['PreToolUse:Bash:exit 0', 'PreToolUse', '^(?:Bash)$', 30_000, true, false, 'proceed'],
      ['Stop:*:ok', 'Stop', undefined, 600_000, false, false, 'block'],
    ]);
    expect(
      configHookTypes([
        readConfigSource({
          text: settings({ PreToolUse: [{ hooks: [{ type: 'http', url: 'https://x' }] }] }),
          source: 's.json',
        }),
      ]),
    ).toEqual(new Set(['http']));
  });

  test('matchers: exact names, alternatives, regular expressions, * and empty', () => {
    expect(claudeMatcher('Bash')).toBe('^(?:Bash)$');
    expect(claudeMatcher('Edit|Write')).toBe('^(?:Edit|Write)$');
    expect(claudeMatcher('mcp__memory__.*')).toBe('mcp__memory__.*');
    expect(claudeMatcher('*')).toBeUndefined();
    expect(claudeMatcher('')).toBeUndefined();
    expect(claudeMatcher(undefined)).toBeUndefined();
  });

  test('errors name file, line and the nearest event or key; nothing is loaded', () => {
    const text = settings({
      PreToolUs: [{ matcher: 'Bash', hooks: [command('a')] }],
      PostToolUse: [
        { matcher: 'Edit', hook: [] },
        {
          hooks: [
            { type: 'command', command: 'b', timout: 3 },
            { type: 'mcp', command: 'c' },
            { type: 'command', command: 'd', timeout: -1 },
          ],
        },
      ],
      Stop: [{ matcher: '(unclosed', hooks: [command('e')] }],
    });
    const lines = text.split('\n');
    const lineOf = (needle: string): number => lines.findIndex((line) => line.includes(needle)) + 1;
    const issues = issuesOf(text);
    expect(issues).toEqual(
      expect.arrayContaining([
        `settings0.json:${lineOf('"PreToolUs"')}: unknown event "PreToolUs" for preset "claude" — did you mean "PreToolUse"? valid events: PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, UserPromptSubmit, Notification, Stop, SubagentStart, SubagentStop, PreCompact, SessionStart, SessionEnd`,
        `settings0.json:${lineOf('"hook": []')}: unknown key \`hook\` in \`hooks.PostToolUse[0]\` — did you mean "hooks"?`,
        expect.stringMatching(
          new RegExp(
            `^settings0.json:${lineOf('"timout"')}: hooks.PostToolUse\\[1\\].hooks\\[0\\] ".*": unknown key \`timout\` in a Claude Code hook — did you mean "timeout"\\?$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(
            `^settings0.json:${lineOf('"mcp"')}: .*unsupported hook type "mcp" — supported types: command, http, prompt, agent$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(`^settings0.json:${lineOf('"timeout": -1')}: .*\`timeout\` must be a number of seconds`),
        ),
      ]),
    );
    // The Stop matcher is ignored (Stop has no matcher), so its invalid regex is no error.
    expect(issues.some((issue) => issue.includes('(unclosed'))).toBe(false);
  });

  test('a JSON syntax error names line and column', () => {
    expect(issuesOf('{\n  "hooks": {\n    "Stop": [,]\n  }\n}')).toEqual([
      'settings0.json:3: invalid JSON at column 14: expected a value (an object, array, string, number, true, false or null), found "," — correct the syntax at that position (JSON needs double-quoted keys and strings, commas between items, no trailing comma and no comments)',
    ]);
  });

  test('an invalid regular expression matcher is a load error on its line', () => {
    const text = settings({ PreToolUse: [{ matcher: 'mcp__(x', hooks: [command('a')] }] });
    const line = text.split('\n').findIndex((entry) => entry.includes('"matcher"')) + 1;
    expect(issuesOf(text)[0]).toMatch(
      new RegExp(`^settings0.json:${line}: .*invalid regular expression in \`matcher\``),
    );
  });

  test("layered files merge as Claude Code merges them: every file's hooks are kept; identical entries of one file collapse", () => {
    const user = settings({
      PreToolUse: [
        { matcher: 'Bash', hooks: [command('guard.sh'), command('guard.sh')] },
        { matcher: 'Edit', hooks: [command('fmt.sh')] },
      ],
    });
    const project = settings({ PreToolUse: [{ matcher: 'Bash', hooks: [command('guard.sh', { timeout: 5 })] }] });
    const config = load(user, project);
    expect(config.hooks.map((hook) => [hook.name, hook.timeoutMs, hook.source.file])).toEqual([
      ['PreToolUse:Bash:guard.sh', 600_000, 'settings0.json'],
      ['PreToolUse:Edit:fmt.sh', 600_000, 'settings0.json'],
      ['PreToolUse:Bash:guard.sh@settings1.json', 5_000, 'settings1.json'],
    ]);
    expect(config.notices).toEqual([
      expect.stringMatching(
        /^settings1\.json:\d+ repeats hook "PreToolUse:Bash:guard\.sh" of settings0\.json:\d+ with other timeout_ms; every settings file's hooks run, so both do$/,
      ),
    ]);
  });

  test('long commands that share their start get distinct names', () => {
    const long = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/a-very-long-hook-name-that-goes-on.py';
    const config = load(settings({ PostToolUse: [{ hooks: [command(`${long} --one`), command(`${long} --two`)] }] }));
    expect(new Set(config.hooks.map((hook) => hook.name)).size).toBe(2);
    expect(config.hooks[0]!.name).toMatch(/^PostToolUse:\*:python3 .*…#[0-9a-f]{8}$/);
  });

  test('a --preset request beats recognition, and an unknown one is an error', () => {
    expect(
      loadConfig([{ text: settings({ Stop: [{ hooks: [command('ok')] }] }), source: 'hooks.toml', format: 'json' }], {
        runners,
        preset: 'claude',
      }).preset,
    ).toBe('claude');
    expect(() => loadConfig([], { runners, preset: 'claud' })).toThrow(
      /unknown preset "claud" — did you mean "claude"\?/,
    );
  });
});

describe('claude events', () => {
  function engine(hooks: unknown) {
    const standIn = standInCommandRunner();
    const config = loadConfig([{ text: settings(hooks), source: 'settings.json' }], { runners: [standIn.runner] });
    return { engine: createHookEngine({ config, runners: [standIn.runner] }), calls: standIn.calls };
  }

  test('hooks of one event run in parallel; identical commands under two matchers run once', async () => {
    const { engine: hooks, calls } = engine({
      PreToolUse: [
        { matcher: 'Bash', hooks: [command('sleep 30'), command('decide {"decision":"ask","reason":"sure?"}')] },
        { matcher: '.*', hooks: [command('sleep 30')] },
      ],
    });
    const outcome = await hooks.emit('PreToolUse', {
      session_id: 's',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(outcome.decision).toBe('ask');
    expect(outcome.reason).toBe('sure?');
    expect(outcome.hooks.map((report) => report.status)).toEqual(['ok', 'ok', 'skipped']);
    expect(outcome.hooks[2]?.skipped_because).toBe(
      'identical to "PreToolUse:Bash:sleep 30", which runs instead (identical hooks run once)',
    );
    // Both started before either ended.
    expect(
      calls.map((call) => call.started).every((started) => calls.every((call) => (call.ended ?? Infinity) > started)),
    ).toBe(true);
    await hooks.close();
  });

  test('event-specific matcher fields; events without matchers ignore them', async () => {
    const { engine: hooks } = engine({
      SessionStart: [{ matcher: 'startup|resume', hooks: [command('ok')] }],
      UserPromptSubmit: [{ matcher: 'nothing-matches', hooks: [command('ok')] }],
    });
    expect((await hooks.emit('SessionStart', { session_id: 's', source: 'resume' })).hooks).toHaveLength(1);
    expect((await hooks.emit('SessionStart', { session_id: 's', source: 'clear' })).hooks).toHaveLength(0);
    expect((await hooks.emit('UserPromptSubmit', { session_id: 's', prompt: 'hi' })).hooks).toHaveLength(1);
    const [explained] = hooks.explain('SessionStart', { session_id: 's', source: 'clear' });
    expect(explained).toMatchObject({
      selected: false,
      reason: 'matcher /^(?:startup|resume)$/ matched none of source="clear"',
    });
    await hooks.close();
  });

  test('extras merge across hooks; extras an event does not honour are dropped with a warning', async () => {
    const { engine: hooks } = engine({
      PreToolUse: [
        {
          hooks: [
            command('decide {"decision":"allow","updated_input":{"command":"ls -a"},"system_message":"one"}'),
            command(
              'decide {"decision":"proceed","updated_input":{"command":"ls -l"},"continue":false,"stop_reason":"enough"}',
            ),
          ],
        },
      ],
      Stop: [{ hooks: [command('decide {"decision":"proceed","additional_context":"nope"}')] }],
    });
    const outcome = await hooks.emit('PreToolUse', { session_id: 's', tool_name: 'Bash' });
    expect(JSON.parse(JSON.stringify(outcome))).toMatchObject({
      decision: 'allow',
      updated_input: { command: 'ls -l' },
      continue: false,
      stop_reason: 'enough',
      system_messages: ['one'],
      warnings: [expect.stringContaining('each set updated_input; the last one in config order')],
    });
    const stop = await hooks.emit('Stop', { session_id: 's' });
    expect(stop.additional_context).toBeUndefined();
    expect(stop.warnings).toEqual([
      'hook "Stop:*:decide {\\"decision\\":\\"proceed\\",\\"additional_context\\":\\"nope\\"}" set additional_context, which "Stop" does not honour (it honours continue, system_message); ignored'.replaceAll(
        '\\"',
        '"',
      ),
    ]);
    await hooks.close();
  });
});

describe('claude: one bad entry does not silence the others', () => {
  test('an invalid entry is kept as a hook that fails where it would be selected; the valid ones run', async () => {
    const standIn = standInCommandRunner();
    const config = loadConfig(
      [
        {
          text: settings({
            PreToolUse: [
              { matcher: 'Bash', hooks: [command('exit 2')] },
              { matcher: 'Bash', hooks: [command('ok', { timeout: 'long', on_error: 'block' })] },
              { matcher: '(?=(a+)+)b', hooks: [command('ok')] },
              { matcher: 'Read', hooks: [command('ok', { tiemout: 3 })] },
            ],
            PreToolUs: [{ hooks: [command('ok')] }],
          }),
          source: 'settings.json',
        },
      ],
      { runners: [standIn.runner] },
    );
    expect(config.problems?.map((issue) => issue.message)).toEqual([
      expect.stringContaining('`timeout` must be a number of seconds'),
      expect.stringContaining('lookaround body `(a+)+` cannot be proven to match in linear time'),
      'unknown key `tiemout` in a Claude Code hook',
      'unknown event "PreToolUs" for preset "claude"',
    ]);
    expect(config.hooks.map((hook) => hook.broken !== undefined)).toEqual([false, true, true, true]);
    expect(config.notices).toHaveLength(4);
    const engine = createHookEngine({ config, runners: [standIn.runner] });
    try {
      const outcome = await engine.emit('PreToolUse', { session_id: 's', tool_name: 'Bash' });
      // The valid guard ran and blocked; the two broken entries that would be selected failed (no
      // matcher could be compiled for the second: it is selected on every PreToolUse), each on its own.
      expect(outcome.decision).toBe('block');
      expect(outcome.hooks.map((report) => [report.status, report.decision?.decision])).toEqual([
        ['ok', 'block'],
        ['failed', 'block'],
        ['failed', 'proceed'],
      ]);
      expect(outcome.hooks[1]?.error).toMatch(
        /^this hook is invalid in settings\.json, so it did not run: line \d+: `timeout` must be a number of seconds greater than 0, got "long" — write "timeout": 30 \(seconds\)/,
      );
      expect(standIn.calls.map((call) => call.hook)).toEqual([config.hooks[0]!.name]);
      expect(outcome.warnings.slice(0, 4)).toEqual(config.notices);
      // Where it would not be selected, a broken entry does nothing but the notice.
      const read = await engine.emit('PreToolUse', { session_id: 's', tool_name: 'Read' });
      expect(read.hooks.map((report) => report.status)).toEqual(['failed', 'failed']);
    } finally {
      await engine.close();
    }
  });

  test("disableAllHooks in a less trusted file switches off its own hooks and later files', never earlier ones", () => {
    const user = settings({ Stop: [{ hooks: [command('user')] }] });
    const project = settings({ Stop: [{ hooks: [command('project')] }] }, { disableAllHooks: true });
    const local = settings({ Stop: [{ hooks: [command('local')] }] });
    const config = load(user, project, local);
    expect(config.hooks.map((hook) => [hook.name, hook.enabled])).toEqual([
      ['Stop:*:user', true],
      ['Stop:*:project', false],
      ['Stop:*:local', false],
    ]);
    expect(config.notices).toEqual([
      'settings1.json sets disableAllHooks: its own hooks and those of later files are off, but the hooks of settings0.json still run — a less trusted settings file may not switch them off',
    ]);
    expect(
      load(settings({ Stop: [{ hooks: [command('user')] }] }, { disableAllHooks: true }), project).hooks.every(
        (hook) => !hook.enabled,
      ),
    ).toBe(true);
  });

  test('a timeout beyond one hour is cut to it, with a warning', () => {
    const config = load(settings({ Stop: [{ hooks: [command('ok', { timeout: 86_400 })] }] }));
    expect(config.hooks[0]?.timeoutMs).toBe(3_600_000);
    expect(config.warnings).toEqual([
      expect.stringContaining('"timeout": 86400 seconds is beyond Hookline\'s limit of 3600 seconds (one hour)'),
    ]);
  });
});
