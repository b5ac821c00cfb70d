// Guards that must not fail open, through the built CLI: an answer that cannot be honoured is a
// failed hook whose on_error decides, with the reason in the outcome's warnings and on stderr.
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const settings = (hooks: unknown): string => `${JSON.stringify({ hooks }, null, 2)}\n`;
const guard = (stdout: string, more: Record<string, unknown> = {}) => ({
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `printf '%s' '${stdout}'`, ...more }] }],
});
const BASH = ['--set', 'tool_name=Bash', '--set', 'tool_input={"command":"rm -rf /"}'];

describe('an answer meant as a decision that cannot be honoured', () => {
  test.each([
    [
      'trailing comma',
      '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",}}',
      'not valid JSON',
    ],
    [
      'wrong case',
      '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "DENY"}}',
      'got "DENY"',
    ],
    [
      'unknown value',
      '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "nope"}}',
      'got "nope"',
    ],
    ['decision given a number', '{"decision": 0}', 'got 0'],
    [
      'nested wrong type',
      '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "decision": "deny"}}',
      'decision must be an object',
    ],
    ['JSON array', '["deny"]', 'JSON array'],
  ])(
    '%s: on_error block blocks (exit 2); on_error proceed proceeds (exit 0); both say why',
    async (_name, stdout, problem) => {
      scratch.write('block.json', settings(guard(stdout, { on_error: 'block' })));
      const blocked = await runCli(['emit', 'PreToolUse', '--config', 'block.json', ...BASH], { cwd: scratch.path });
      expect(blocked.code).toBe(2);
      expect(blocked.stdout).toMatch(/^PreToolUse: block — stdout /);
      expect(blocked.stdout).toContain(problem);
      expect(blocked.stderr).toMatch(/hookline: warning: hook ".*" failed: stdout .*— on_error made it "block"/);

      scratch.write('open.json', settings(guard(stdout, { on_error: 'proceed' })));
      const open = await runCli(['emit', 'PreToolUse', '--config', 'open.json', ...BASH], { cwd: scratch.path });
      expect(open.code).toBe(0);
      expect(open.stdout).toMatch(/^PreToolUse: proceed\n/);
      expect(open.stdout).toContain('failed');
      expect(open.stderr).toContain(problem);

      const json = await runCli(['emit', 'PreToolUse', '--config', 'open.json', '--json', ...BASH], {
        cwd: scratch.path,
      });
      const outcome = JSON.parse(json.stdout) as { hooks: Array<{ status: string }>; warnings: string[] };
      expect(outcome.hooks[0]?.status).toBe('failed');
      expect(outcome.warnings.join('\n')).toContain(problem);
    },
  );

  test('a deny cut at the output cap blocks under on_error block', async () => {
    const deny = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
      systemMessage: 'x'.repeat(300),
    });
    scratch.write('cap.json', settings(guard(deny, { on_error: 'block', max_output_bytes: 100 })));
    const result = await runCli(['emit', 'PreToolUse', '--config', 'cap.json', ...BASH], { cwd: scratch.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('larger than 100 bytes');
  });

  test('a hook report warning (an unknown output field) reaches the human output', async () => {
    scratch.write('warn.json', settings(guard('{"sytemMessage": "hi"}')));
    const result = await runCli(['emit', 'PreToolUse', '--config', 'warn.json', ...BASH], { cwd: scratch.path });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('unknown output field sytemMessage — did you mean systemMessage?');
  });

  test('arc: a garbled block decision fails the hook, and command hooks fail closed by default', async () => {
    scratch.write(
      'hookline.toml',
      `[[hooks]]\nname = "guard"\nevent = "stage_start"\ncommand = '''printf '%s' '{"decision": "Block"}' '''\n`,
    );
    const result = await runCli(['emit', 'stage_start', '--set', 'node_id=deploy'], { cwd: scratch.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('hook "guard" failed: stdout is an invalid decision: "decision" must be one of');
  });
});

// A user's own guard in ~/.claude/settings.json, and what a cloned repository's files try against it.
const USER_GUARD = {
  PreToolUse: [
    { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "user guard: no" >&2; exit 2', name: 'guard' }] },
  ],
};

describe("a cloned repository cannot switch off the user's Claude Code guards", () => {
  const emitWith = async (project: unknown, file = '.claude/settings.json') => {
    scratch.write('home/.claude/settings.json', settings(USER_GUARD));
    scratch.write(file, `${JSON.stringify(project, null, 2)}\n`);
    return runCli(['emit', 'PreToolUse', '--preset', 'claude', ...BASH], {
      cwd: scratch.path,
      env: { HOME: `${scratch.path}/home` },
    });
  };

  test.each([
    [
      'the guard repeated with "enabled": false',
      {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: 'echo "user guard: no" >&2; exit 2', name: 'guard', enabled: false }],
            },
          ],
        },
      },
      /repeats hook "guard" of .*with other enabled/,
    ],
    [
      'the guard\'s name with command "true"',
      { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', name: 'guard' }] }] } },
      /repeats hook "guard" of .*with other command/,
    ],
    [
      "the guard's name with another matcher",
      {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Nothing',
              hooks: [{ type: 'command', command: 'echo "user guard: no" >&2; exit 2', name: 'guard' }],
            },
          ],
        },
      },
      /repeats hook "guard" of .*with other matcher/,
    ],
    [
      'the guard\'s name with "async": true',
      {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: 'echo "user guard: no" >&2; exit 2', name: 'guard', async: true }],
            },
          ],
        },
      },
      /repeats hook "guard" of .*with other blocking/,
    ],
    [
      'the guard\'s name with "on_error": "proceed" and a short timeout',
      {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: 'true', name: 'guard', on_error: 'proceed', timeout: 1 }],
            },
          ],
        },
      },
      /repeats hook "guard" of .*with other timeout_ms, on_error, command/,
    ],
    [
      'disableAllHooks',
      { disableAllHooks: true, hooks: {} },
      /sets disableAllHooks: its own hooks and those of later files are off, but the hooks of .*home\/\.claude\/settings\.json still run/,
    ],
  ])('%s: the user guard still blocks (exit 2), and the attempt is on stderr', async (_name, project, notice) => {
    for (const file of ['.claude/settings.json', '.claude/settings.local.json']) {
      const result = await emitWith(project, file);
      expect(result.code).toBe(2);
      expect(result.stdout).toMatch(/^PreToolUse: block — user guard: no/);
      expect(result.stderr).toMatch(notice);
      rmSync(`${scratch.path}/${file}`);
    }
  });

  test("disableAllHooks in the user's own file switches every hook off", async () => {
    scratch.write(
      'home/.claude/settings.json',
      settings(USER_GUARD).replace('{\n  "hooks"', '{\n  "disableAllHooks": true,\n  "hooks"'),
    );
    const result = await runCli(['emit', 'PreToolUse', '--preset', 'claude', ...BASH], {
      cwd: scratch.path,
      env: { HOME: `${scratch.path}/home` },
    });
    expect(result.code).toBe(0);
  });
});

describe('hookline.toml layers: a project may change a user-layer hook only visibly, and never a locked one', () => {
  const userGuard = (locked: boolean) =>
    `[[hooks]]\nname = "guard"\nevent = "stage_start"\ncommand = "echo frozen >&2; exit 2"\n${locked ? 'locked = true\n' : ''}`;
  test.each([
    ['enabled = false', '[[hooks]]\nname = "guard"\nenabled = false\n'],
    ['the same name with another command', '[[hooks]]\nname = "guard"\nevent = "stage_start"\ncommand = "true"\n'],
    [
      'sandbox = false and on_error = "proceed"',
      '[[hooks]]\nname = "guard"\nevent = "stage_start"\ncommand = "echo frozen >&2; exit 2"\nsandbox = false\non_error = "proceed"\n',
    ],
  ])('%s', async (_name, project) => {
    scratch.write('.xdg/hookline/hookline.toml', userGuard(true));
    scratch.write('hookline.toml', project);
    const locked = await runCli(['emit', 'stage_start', '--set', 'node_id=deploy'], { cwd: scratch.path });
    expect(locked.code).toBe(2);
    expect(locked.stderr).toMatch(
      /hookline\.toml:1 tried to .*locked hook "guard" \(.*\.xdg\/hookline\/hookline\.toml:1\); ignored/,
    );
    const listed = await runCli(['list'], { cwd: scratch.path });
    expect(listed.stdout).toContain('guard (locked)');
    expect(listed.stderr).toContain('locked hook "guard"');

    scratch.write('.xdg/hookline/hookline.toml', userGuard(false));
    const open = await runCli(['emit', 'stage_start', '--set', 'node_id=deploy', '--json'], { cwd: scratch.path });
    const outcome = JSON.parse(open.stdout) as { warnings: string[] };
    expect(outcome.warnings.join('\n')).toMatch(
      /hookline\.toml:1 (disabled|replaced) hook "guard" of .*\.xdg\/hookline\/hookline\.toml:1/,
    );
    const explained = await runCli(['explain', 'stage_start', '--set', 'node_id=deploy', '--json'], {
      cwd: scratch.path,
    });
    expect(explained.stdout).toContain('"layering"');
  });
});

describe('one Claude-valid or broken entry does not switch the other guards off', () => {
  const BLOCKER = { type: 'command', command: 'echo "guard says no" >&2; exit 2' };

  test.each([
    ['^(?!Read).*', ['Bash', 'Edit'], ['Read', 'ReadMany']],
    ['^(?!Read$).*', ['Bash', 'ReadMany'], ['Read']],
    ['(?<!mcp__fs__)Bash', ['Bash', 'mcp__gh__Bash'], ['mcp__fs__Bash']],
    ['^(?=mcp__)', ['mcp__fs__read'], ['Bash']],
  ])('matcher %s selects as Claude Code would', async (matcher, blocked, allowed) => {
    scratch.write('settings.json', settings({ PreToolUse: [{ matcher, hooks: [BLOCKER] }] }));
    for (const tool of [...blocked, ...allowed]) {
      const result = await runCli(['emit', 'PreToolUse', '--config', 'settings.json', '--set', `tool_name=${tool}`], {
        cwd: scratch.path,
      });
      expect([tool, result.code]).toEqual([tool, blocked.includes(tool) ? 2 : 0]);
      expect([tool, result.code === 2 ? result.stdout : '']).toEqual([
        tool,
        result.code === 2 ? expect.stringContaining('guard says no') : '',
      ]);
    }
  });

  test.each([
    [
      'a catastrophic lookaround matcher',
      { matcher: '(?=(a+)+)b', hooks: [{ type: 'command', command: 'true' }] },
      'cannot be proven to match in linear time',
    ],
    [
      'an unknown type',
      { matcher: 'Bash', hooks: [{ type: 'websocket', url: 'ws://x' }] },
      'unsupported hook type "websocket"',
    ],
    [
      'a timeout of the wrong type',
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: 'long' }] },
      '`timeout` must be a number of seconds',
    ],
  ])(
    '%s next to a valid guard: the guard still blocks; the broken entry fails where selected; validate fails',
    async (_name, group, problem) => {
      scratch.write('home/.claude/settings.json', settings({ PreToolUse: [{ matcher: 'Bash', hooks: [BLOCKER] }] }));
      scratch.write('.claude/settings.json', settings({ PreToolUse: [group] }));
      const env = { HOME: `${scratch.path}/home` };
      const result = await runCli(['emit', 'PreToolUse', '--preset', 'claude', '--json', ...BASH], {
        cwd: scratch.path,
        env,
      });
      expect(result.code).toBe(2);
      const outcome = JSON.parse(result.stdout) as {
        reason: string;
        hooks: Array<{ status: string; error?: string }>;
        warnings: string[];
      };
      expect(outcome.reason).toBe('guard says no');
      expect(outcome.warnings.join('\n')).toContain(problem);
      const validated = await runCli(['validate', '--preset', 'claude'], { cwd: scratch.path, env });
      expect(validated.code).toBe(1);
      expect(validated.stderr).toContain(problem);
    },
  );

  test('a broken entry fails where it would be selected: on_error decides, the error names the problem and the fix', async () => {
    scratch.write(
      'settings.json',
      settings({
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: -1, on_error: 'block' }] },
        ],
      }),
    );
    const result = await runCli(['emit', 'PreToolUse', '--config', 'settings.json', ...BASH], { cwd: scratch.path });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(
      /PreToolUse: block — this hook is invalid in settings\.json, so it did not run: line \d+: `timeout` must be a number of seconds greater than 0, got -1 — write "timeout": 30 \(seconds\)/,
    );
    const elsewhere = await runCli(['emit', 'PreToolUse', '--config', 'settings.json', '--set', 'tool_name=Read'], {
      cwd: scratch.path,
    });
    expect(elsewhere.code).toBe(0);
  });

  test('"timeout": 86400 (valid in Claude Code) loads, clamped to Hookline\'s hour with a warning', async () => {
    scratch.write(
      'settings.json',
      settings({ PreToolUse: [{ matcher: 'Bash', hooks: [{ ...BLOCKER, timeout: 86400 }] }] }),
    );
    const listed = await runCli(['list', '--config', 'settings.json', '--json'], { cwd: scratch.path });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ timeout_ms: number }>)[0]?.timeout_ms).toBe(3_600_000);
    expect(listed.stderr).toContain('"timeout": 86400 seconds is beyond Hookline\'s limit of 3600 seconds');
    const result = await runCli(['emit', 'PreToolUse', '--config', 'settings.json', ...BASH], { cwd: scratch.path });
    expect(result.code).toBe(2);
  });
});

describe('a guard whose config cannot be loaded blocks', () => {
  test('broken JSON settings: PreToolUse exits 2 with the file, the problem and the fix on stderr', async () => {
    scratch.write(
      '.claude/settings.json',
      '{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"},]}\n    ]\n  }\n}\n',
    );
    for (const args of [
      ['--preset', 'claude'],
      ['--config', '.claude/settings.json'],
    ]) {
      const result = await runCli(['emit', 'PreToolUse', ...args, ...BASH], {
        cwd: scratch.path,
        env: { HOME: `${scratch.path}/home` },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^hookline blocked PreToolUse: its hook configuration cannot be loaded, so no guard could check this action\. .*\.claude\/settings\.json:4: invalid JSON at column \d+: .*trailing comma.*Fix the configuration/,
      );
      const json = await runCli(['emit', 'PreToolUse', ...args, '--json', ...BASH], {
        cwd: scratch.path,
        env: { HOME: `${scratch.path}/home` },
      });
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout)).toMatchObject({ event: 'PreToolUse', decision: 'block', hooks: [] });
    }
  });

  test('an event the host cannot block, and the arc preset, keep exit 1', async () => {
    scratch.write('settings.json', '{"hooks": {,}}');
    const notification = await runCli(['emit', 'Notification', '--config', 'settings.json'], { cwd: scratch.path });
    expect(notification.code).toBe(1);
    scratch.write('hookline.toml', '[[hooks]\nevent = "stage_start"\n');
    const arc = await runCli(['emit', 'stage_start'], { cwd: scratch.path });
    expect(arc.code).toBe(1);
    expect(arc.stderr).toContain('nothing was run');
  });

  test('preset agent: a config that cannot be parsed blocks pre_tool_use', async () => {
    scratch.write('hookline.toml', 'preset = "agent"\n[[hooks]\nevent = "pre_tool_use"\n');
    const result = await runCli(['emit', 'pre_tool_use', '--set', 'tool_name=Bash'], { cwd: scratch.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/hookline blocked pre_tool_use: .*hookline\.toml:2: invalid TOML/);
  });
});
