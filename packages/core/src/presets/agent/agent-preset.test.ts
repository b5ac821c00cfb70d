import { afterEach, describe, expect, test } from 'vitest';
import type { HookConfig, HookDefinition } from '../../config/hook-definition.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createHookEngine, type HookEngine } from '../../engine/create-hook-engine.ts';
import { configIssues } from '../../../test-support/config-issues.ts';
import { standInCommandRunner, standInHttpRunner } from '../../../test-support/stand-in-runners.ts';
import { AGENT_CONTEXT_VARIABLE_LIMIT, agentPreset } from './agent-preset.ts';

const runners = [standInCommandRunner().runner, standInHttpRunner().runner];

function load(...texts: string[]): HookConfig {
  return loadConfig(
    texts.map((text, index) => ({ text, source: `layer${index}.toml` })),
    { runners },
  );
}

const issuesOf = (text: string): string[] => configIssues(() => load(text));

function behaviour(hook: HookDefinition): Omit<HookDefinition, 'source'> {
  const { source: _source, ...rest } = hook;
  return rest;
}

// The coding agent's documented example, plus the inline action form and a pre_tool_use check.
const dialect = `preset = "agent"

[[hooks]]
event = "post_tool_use"
tool_name = "FileWrite"
[hooks.action]
type = "shell"
command = "cargo fmt"

[[hooks]]
event = "post_tool_use"
tool_name = "FileEdit"
[hooks.action]
type = "shell"
command = "cargo fmt"

[[hooks]]
event = "session_start"
[hooks.action]
type = "http"
url = "https://hooks.slack.com/services/T000/B000/XXXX"
method = "POST"

[[hooks]]
event = "pre_tool_use"
tool_name = "Bash"
action = { type = "shell", command = "./check.sh" }
`;

const canonical = `preset = "agent"

[[hooks]]
name = "post_tool_use:FileWrite:cargo fmt"
event = "post_tool_use"
matcher = "^FileWrite$"
type = "command"
command = "cargo fmt"

[[hooks]]
name = "post_tool_use:FileEdit:cargo fmt"
event = "post_tool_use"
matcher = "^FileEdit$"
command = "cargo fmt"

[[hooks]]
name = "session_start:https://hooks.slack.com/services/T000/B000/XXXX"
event = "session_start"
type = "http"
url = "https://hooks.slack.com/services/T000/B000/XXXX"

[[hooks]]
name = "pre_tool_use:Bash:./check.sh"
event = "pre_tool_use"
matcher = "^Bash$"
command = "./check.sh"
`;

describe('agent dialect', () => {
  test('actions become command and http hooks, tool_name an exact matcher; the same as the canonical config', () => {
    const fromDialect = load(dialect);
    const fromCanonical = load(canonical);
    expect(fromDialect.hooks.map(behaviour)).toEqual(fromCanonical.hooks.map(behaviour));
    expect(
      fromDialect.hooks.map(({ name, type, matcher, blocking, timeoutMs, onError, sandbox, durable }) => ({
        name,
        type,
        matcher,
        blocking,
        timeoutMs,
        onError,
        sandbox,
        durable,
      })),
    ).toEqual([
      {
        name: 'post_tool_use:FileWrite:cargo fmt',
        type: 'command',
        matcher: '^FileWrite$',
        blocking: false,
        timeoutMs: 30_000,
        onError: 'block',
        sandbox: false,
        durable: false,
      },
      {
        name: 'post_tool_use:FileEdit:cargo fmt',
        type: 'command',
        matcher: '^FileEdit$',
        blocking: false,
        timeoutMs: 30_000,
        onError: 'block',
        sandbox: false,
        durable: false,
      },
      // http keeps its type's timeout and on_error; only shell actions get 30 s.
      {
        name: 'session_start:https://hooks.slack.com/services/T000/B000/XXXX',
        type: 'http',
        matcher: undefined,
        blocking: false,
        timeoutMs: 60_000,
        onError: 'proceed',
        sandbox: false,
        durable: false,
      },
      {
        name: 'pre_tool_use:Bash:./check.sh',
        type: 'command',
        matcher: '^Bash$',
        blocking: true,
        timeoutMs: 30_000,
        onError: 'block',
        sandbox: false,
        durable: false,
      },
    ]);
  });

  test("pre_tool_use fails closed for every type: its on_error beats the type default, a hook's own beats both", () => {
    const config = load(
      'preset = "agent"\n[[hooks]]\nevent = "pre_tool_use"\naction = { type = "http", url = "https://policy.example/check" }\n[[hooks]]\nevent = "pre_tool_use"\non_error = "proceed"\naction = { type = "http", url = "https://policy.example/soft" }\n',
    );
    expect(config.hooks.map((hook) => hook.onError)).toEqual(['block', 'proceed']);
  });

  test('tool_name escapes regex syntax and matches only that tool', () => {
    const config = load(
      'preset = "agent"\n[[hooks]]\nevent = "pre_tool_use"\ntool_name = "mcp__a.b(c)"\naction = { type = "shell", command = "true" }\n',
    );
    const pattern = config.hooks[0]!.matcherPattern!;
    expect(pattern.test('mcp__a.b(c)')).toBe(true);
    expect(pattern.test('mcp__aXb(c)')).toBe(false);
    expect(pattern.test('mcp__a.b(c)x')).toBe(false);
  });

  test('mistakes in an action are named at their line with a fix', () => {
    const issues = issuesOf(`preset = "agent"

[[hooks]]
event = "session_start"
[hooks.action]
type = "shel"
command = "make lint"

[[hooks]]
event = "session_start"
[hooks.action]
type = "http"
url = "https://example.com/webhook"
method = "GET"

[[hooks]]
event = "post_tool_use"
tool_name = "Bash"
matcher = "Bash"
action = { type = "shell", command = "true", timeout_ms = 5 }

[[hooks]]
event = "pre_tol_use"

[[hooks]]
event = "stop"
[hooks.action]
type = "shell"
comand = "make"
`);
    expect(issues).toEqual([
      'layer0.toml:6: hooks[0] "session_start:make lint": unknown action type "shel" — did you mean "shell"? an action is type = "shell" with command = "…", or type = "http" with url = "…"',
      'layer0.toml:14: hooks[1] "session_start:https://example.com/webhook": method = "GET" is not supported: http hooks always POST the event\'s context as JSON — remove `method`, or set method = "POST"',
      'layer0.toml:19: hooks[2] "post_tool_use:true": `tool_name` and `matcher` cannot be used together — keep tool_name for one tool (exact match), or matcher for a regular expression',
      'layer0.toml:20: hooks[2] "post_tool_use:true": `timeout_ms` belongs to the [[hooks]] table, not to its action — move timeout_ms = … above [hooks.action]',
      'layer0.toml:22: hooks[3] "pre_tol_use:?": the hook has no action — add a [hooks.action] table: an action is type = "shell" with command = "…", or type = "http" with url = "…"',
      'layer0.toml:23: hooks[3] "pre_tol_use:?": unknown event "pre_tol_use" for preset "agent" — did you mean "pre_tool_use"? valid events: session_start, session_stop, user_prompt_submit, pre_turn, post_turn, pre_tool_use, post_tool_use, file_changed, pre_compact, post_compact, task_completed, stop, notification, permission_denied, cwd_changed, config_change, error',
      'layer0.toml:27: hooks[4] "stop:command": missing required key `command` — add command = …',
      'layer0.toml:29: hooks[4] "stop:command": unknown key `comand` for a command hook — did you mean `command`?',
    ]);
  });

  test('two unnamed hooks that differ only by tool_name are distinct; identical ones must be named', () => {
    expect(load(dialect).hooks).toHaveLength(4);
    const twice =
      '[[hooks]]\nevent = "post_tool_use"\ntool_name = "FileWrite"\naction = { type = "shell", command = "cargo fmt" }\n';
    const issues = issuesOf(`preset = "agent"\n${twice}${twice}`);
    expect(issues).toEqual([
      'layer0.toml:6: hooks[1] "post_tool_use:FileWrite:cargo fmt": another hook in this file (hooks[0], line 2) has the same effective name "post_tool_use:FileWrite:cargo fmt" — give the two hooks distinct `name`s',
    ]);
  });

  test('AGENT_CODE_HOOK_CONTEXT holds the JSON up to 16 384 UTF-8 bytes, else the TRUNCATED flag', () => {
    const variables = (contextJson: string, tool?: string) =>
      agentPreset.command.environment.variables(
        { event: 'pre_tool_use', session_id: 's', ...(tool === undefined ? {} : { tool_name: tool }) },
        contextJson,
      );
    // "é" is two bytes and "😀" four: the limit counts bytes, not characters.
    const at = (bytes: number): string => {
      const emoji = Math.floor((bytes - 2) / 4);
      return `"${'😀'.repeat(emoji)}${'é'.repeat((bytes - 2 - emoji * 4) >> 1)}${'x'.repeat((bytes - 2 - emoji * 4) % 2)}"`;
    };
    expect(new TextEncoder().encode(at(AGENT_CONTEXT_VARIABLE_LIMIT)).length).toBe(16_384);
    expect(new TextEncoder().encode(at(16_385)).length).toBe(16_385);
    expect(variables(at(16_384), 'Bash')).toEqual({
      AGENT_CODE_HOOK_EVENT: 'pre_tool_use',
      AGENT_CODE_HOOK_TOOL: 'Bash',
      AGENT_CODE_HOOK_CONTEXT: at(16_384),
    });
    expect(variables(at(16_385))).toEqual({
      AGENT_CODE_HOOK_EVENT: 'pre_tool_use',
      AGENT_CODE_HOOK_CONTEXT_TRUNCATED: '1',
    });
  });
});

describe('agent hooks in the engine', () => {
  const engines: HookEngine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });

  test('a Bash hook does not fire for BashOutput; a hook without tool_name fires for every tool', async () => {
    const { runner, calls } = standInCommandRunner();
    const config = loadConfig(
      [
        {
          text: 'preset = "agent"\n[[hooks]]\nname = "bash-only"\nevent = "pre_tool_use"\ntool_name = "Bash"\naction = { type = "shell", command = "ok" }\n[[hooks]]\nname = "every-tool"\nevent = "pre_tool_use"\naction = { type = "shell", command = "ok" }\n',
          source: 'agent.toml',
        },
      ],
      { runners: [runner] },
    );
    const engine = createHookEngine({ config, runners: [runner] });
    engines.push(engine);
    for (const tool of ['Bash', 'BashOutput', 'bash'])
      await engine.emit('pre_tool_use', { session_id: 's-1', tool_name: tool, tool_input: { command: 'ls' } });
    expect(calls.map((call) => `${call.hook}@${String(call.context['tool_name'])}`)).toEqual([
      'bash-only@Bash',
      'every-tool@Bash',
      'every-tool@BashOutput',
      'every-tool@bash',
    ]);
  });

  test('pre_tool_use: a veto blocks with its reason; a failure or timeout vetoes too', async () => {
    const { runner } = standInCommandRunner();
    const http = standInHttpRunner().runner;
    const config = loadConfig(
      [
        {
          text: 'preset = "agent"\n[[hooks]]\nname = "web"\nevent = "pre_tool_use"\ntool_name = "Web"\naction = { type = "http", url = "https://policy.example/fail" }\n[[hooks]]\nname = "slow"\nevent = "pre_tool_use"\ntool_name = "Slow"\ntimeout_ms = 50\naction = { type = "shell", command = "hang" }\n[[hooks]]\nname = "veto"\nevent = "pre_tool_use"\ntool_name = "Bash"\naction = { type = "shell", command = "exit 1" }\n',
          source: 'agent.toml',
        },
      ],
      { runners: [runner, http] },
    );
    const engine = createHookEngine({ config, runners: [runner, http], closeGraceMs: 50 });
    engines.push(engine);
    expect(await engine.emit('pre_tool_use', { session_id: 's', tool_name: 'Bash' })).toMatchObject({
      decision: 'block',
      decided_by: 'veto',
      reason: 'hook exited with code 1',
    });
    expect(await engine.emit('pre_tool_use', { session_id: 's', tool_name: 'Web' })).toMatchObject({
      decision: 'block',
      decided_by: 'web',
      reason: 'HTTP 500',
    });
    expect(await engine.emit('pre_tool_use', { session_id: 's', tool_name: 'Slow' })).toMatchObject({
      decision: 'block',
      decided_by: 'slow',
      reason: 'hook timed out after 50 ms',
    });
    await expect(engine.emit('pre_tool_use', { tool_name: 'Bash' })).rejects.toThrow('lacks "session_id"');
  });
});
