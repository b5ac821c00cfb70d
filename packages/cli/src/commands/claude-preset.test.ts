// The CLI with Claude Code settings files: recognition, --preset claude and its settings discovery,
// validate with lines and columns, explain's matcher reasons, the schema, and the human outcome.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const settings = (hooks: unknown): string => `${JSON.stringify({ model: 'opus', hooks }, null, 2)}\n`;
const hook = (command: string, more: Record<string, unknown> = {}) => ({ type: 'command', command, ...more });

describe('preset claude in the CLI', () => {
  test('with --preset claude and no --config: ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json, in that order', async () => {
    const home = `${scratch.path}/home`;
    scratch.write(
      'home/.claude/settings.json',
      settings({ Stop: [{ hooks: [hook('echo user >> order.txt')] }], SessionEnd: [{ hooks: [hook('true')] }] }),
    );
    scratch.write('.claude/settings.json', settings({ Stop: [{ hooks: [hook('echo project >> order.txt')] }] }));
    scratch.write(
      '.claude/settings.local.json',
      settings({
        Stop: [
          { hooks: [hook('echo local >> order.txt')] },
          { hooks: [hook('echo user >> order.txt', { timeout: 9 })] },
        ],
      }),
    );
    const list = await runCli(['list', '--preset', 'claude', '--json'], { cwd: scratch.path, env: { HOME: home } });
    expect(list.code).toBe(0);
    const hooks = JSON.parse(list.stdout) as Array<{ name: string; timeout_ms: number; source: { file: string } }>;
    expect(hooks.map((entry) => [entry.name, entry.timeout_ms, entry.source.file])).toEqual([
      // Every file's hooks are kept, as Claude Code merges them: a later file never replaces an earlier one's.
      ['Stop:*:echo user >> order.txt', 600_000, `${home}/.claude/settings.json`],
      ['SessionEnd:*:true', 600_000, `${home}/.claude/settings.json`],
      ['Stop:*:echo project >> order.txt', 600_000, '.claude/settings.json'],
      ['Stop:*:echo local >> order.txt', 600_000, '.claude/settings.local.json'],
      ['Stop:*:echo user >> order.txt@.claude/settings.local.json', 9_000, '.claude/settings.local.json'],
    ]);
    expect(list.stderr).toMatch(
      /\.claude\/settings\.local\.json:\d+ repeats hook "Stop:\*:echo user >> order\.txt" of .*with other timeout_ms; every settings file's hooks run, so both do/,
    );
    // Without --preset, the CLI looks for hookline.toml as always.
    const plain = await runCli(['list'], { cwd: scratch.path, env: { HOME: home } });
    expect(plain.stdout + plain.stderr).not.toContain('Stop');
  });

  test('a .json config with a hooks object is recognised without --preset; emit prints the extras', async () => {
    scratch.write(
      'settings.json',
      settings({
        UserPromptSubmit: [
          {
            hooks: [
              hook('echo "ticket ABC-1"'),
              hook(
                `echo '{"systemMessage": "checked", "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "be brief"}}'`,
              ),
            ],
          },
        ],
      }),
    );
    const result = await runCli(['emit', 'UserPromptSubmit', '--config', 'settings.json', '--set', 'prompt=hi'], {
      cwd: scratch.path,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^UserPromptSubmit: proceed\n {2}context: ticket ABC-1\n {2}context: be brief\n {2}message: checked\n/,
    );
  });

  test('validate: a JSON syntax error names line and column; an unknown event the nearest name', async () => {
    scratch.write(
      'broken.json',
      '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "true" }, ] }\n    ]\n  }\n}\n',
    );
    const broken = await runCli(['validate', '--config', 'broken.json', '--preset', 'claude'], { cwd: scratch.path });
    expect(broken.code).toBe(1);
    expect(broken.stdout + broken.stderr).toContain(
      'broken.json:4: invalid JSON at column 62: expected another element after "," (JSON allows no trailing comma), found "]"',
    );
    scratch.write(
      'typo.json',
      settings({ PostToolUs: [{ hooks: [hook('true')] }], Stop: [{ hooks: [{ type: 'websocket', url: 'x' }] }] }),
    );
    const typo = await runCli(['validate', '--config', 'typo.json'], { cwd: scratch.path });
    expect(typo.code).toBe(1);
    const output = typo.stdout + typo.stderr;
    expect(output).toContain(
      'typo.json:4: unknown event "PostToolUs" for preset "claude" — did you mean "PostToolUse"?',
    );
    expect(output).toMatch(
      /typo\.json:\d+: hooks\.Stop\[0\]\.hooks\[0\] "Stop:\*:x": unsupported hook type "websocket" — supported types: command, http, prompt, agent/,
    );
  });

  test('explain says why each matcher matched or not', async () => {
    scratch.write(
      '.claude/settings.json',
      settings({
        PreToolUse: [
          { matcher: 'Edit|Write', hooks: [hook('true')] },
          { matcher: 'mcp__github__.*', hooks: [hook('false')] },
          { hooks: [hook('echo all')] },
        ],
      }),
    );
    const result = await runCli(['explain', 'PreToolUse', '--preset', 'claude', '--set', 'tool_name=Write'], {
      cwd: scratch.path,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /✓\s+PreToolUse:Edit\|Write:true .*matcher \/\^\(\?:Edit\|Write\)\$\/ matched tool_name="Write"/,
    );
    expect(result.stdout).toMatch(
      /✗\s+PreToolUse:mcp__github__\.\*:false .*matcher \/mcp__github__\.\*\/ matched none of tool_name="Write"/,
    );
    expect(result.stdout).toMatch(/✓\s+PreToolUse:\*:echo all .*no matcher: runs on every "PreToolUse"/);
    expect(result.stdout).toContain('order: all at once: PreToolUse:Edit|Write:true, PreToolUse:*:echo all');
  });

  test('schema --preset claude describes the settings hooks object', async () => {
    const result = await runCli(['schema', '--preset', 'claude'], { cwd: scratch.path });
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as {
      properties: { hooks: { properties: Record<string, { items: { properties: Record<string, unknown> } }> } };
    };
    expect(Object.keys(schema.properties.hooks.properties)).toEqual([
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'Notification',
      'Stop',
      'SubagentStart',
      'SubagentStop',
      'PreCompact',
      'SessionStart',
      'SessionEnd',
    ]);
    expect(Object.keys(schema.properties.hooks.properties['PreToolUse']!.items.properties)).toEqual([
      'matcher',
      'hooks',
    ]);
    expect(result.stdout).toContain('"allowedEnvVars"');
  });

  test('an unknown --preset is a usage error with the nearest name', async () => {
    const result = await runCli(['list', '--preset', 'claud'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'unknown preset "claud" (did you mean "claude"?); known presets: arc, task, agent, gemini, codex, cursor, copilot, windsurf, claude.',
    );
  });
});

test('hookline run takes Claude Code hook inputs as they are, the event named by hook_event_name', async () => {
  const scratch = makeScratch();
  try {
    scratch.write(
      '.claude/settings.json',
      settings({
        PreToolUse: [{ matcher: 'Bash', hooks: [hook('echo no >&2; exit 2')] }],
        SessionEnd: [{ hooks: [hook('true')] }],
      }),
    );
    const lines = [
      { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
      { session_id: 's1', hook_event_name: 'SessionEnd', reason: 'exit' },
      { session_id: 's1', tool_name: 'Bash' },
    ].map((line) => JSON.stringify(line));
    const result = await runCli(['run', '--preset', 'claude'], { cwd: scratch.path, input: `${lines.join('\n')}\n` });
    const outputs = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(outputs.map((output) => [output['event'], output['decision']])).toEqual([
      ['PreToolUse', 'block'],
      ['SessionEnd', 'proceed'],
      [undefined, undefined],
    ]);
    expect(outputs[2]).toMatchObject({
      line: 3,
      error: { message: 'the object has no "event" (or "hook_event_name") string; add "event": "<name>"' },
    });
    expect(result.code).toBe(1);
  } finally {
    scratch.cleanup();
  }
});
