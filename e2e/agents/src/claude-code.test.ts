import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claudeProblem, claudeProject, claudeRequired, runClaude, type ClaudeProject } from './support/claude-code.ts';
import { startMockAnthropic, type MockAnthropic } from './support/mock-anthropic.ts';
import { lastRequestText, toolResults } from './support/tool-results.ts';

// The real Claude Code binary, headless against a mock Messages API on 127.0.0.1, with Hookline put
// into its settings by `hookline install claude`. Each test is its own project and scenario, so they
// run at once against the one mock.

const problem = claudeProblem();
if (problem !== undefined && !claudeRequired)
  console.warn(`[claude-code.test.ts] Claude Code cannot run on this platform, so its tests are skipped: ${problem}`);

// One guard config for every agent: preset agent, canonical tool name `shell`.
const GUARDS = `preset = "agent"

[[hooks]]
name = "no-rm-rf"
event = "pre_tool_use"
tool_name = "shell"
[hooks.action]
type = "shell"
command = '''grep -q 'rm -rf' && { echo "no rm -rf here: delete files one by one" >&2; exit 2; } || exit 0'''

[[hooks]]
name = "rewrite"
event = "pre_tool_use"
tool_name = "shell"
[hooks.action]
type = "shell"
command = '''grep -q 'touch original-marker' && echo '{"decision": "proceed", "updated_input": {"command": "touch rewritten-marker"}}' || exit 0'''

[[hooks]]
name = "context"
event = "post_tool_use"
tool_name = "shell"
blocking = true
[hooks.action]
type = "shell"
command = '''echo '{"decision": "proceed", "additional_context": "HOOKLINE-CONTEXT: the build is green"}' '''
`;

describe.runIf(problem === undefined || claudeRequired)('Claude Code through hookline bridge claude', () => {
  let mock: MockAnthropic;
  const projects: ClaudeProject[] = [];

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Claude Code is required here (CI=true) but cannot run: ${problem}`);
    mock = await startMockAnthropic();
  });
  afterAll(async () => {
    await mock?.close();
    for (const project of projects) project.remove();
  });

  /** A project with `files`, Hookline installed with `install` arguments, and one scenario run. */
  async function scenario(files: Record<string, string>, command: string, install: string[] = []) {
    const project = claudeProject(mock.url, files);
    projects.push(project);
    await project.hookline('install', 'claude', ...install);
    const key = mock.scenario({ command });
    const result = await runClaude(project, `Run the command for ${key}.`);
    return {
      project,
      result,
      requests: mock.requests(key),
      marker: (name: string) => existsSync(join(project.dir, name)),
    };
  }

  test.concurrent('a guard blocks the shell call, and its reason reaches the model as the tool result', async () => {
    // A new user's steps: the starter of `hookline init --preset agent`, then `hookline install claude`.
    const project = claudeProject(mock.url, {});
    projects.push(project);
    await project.hookline('init', '--preset', 'agent');
    await project.hookline('install', 'claude');
    const key = mock.scenario({ command: 'touch blocked-marker && rm -rf ./nothing' });
    const result = await runClaude(project, `Run the command for ${key}.`);
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(project.dir, 'blocked-marker'))).toBe(false);
    expect(toolResults(mock.requests(key)).join('\n')).toContain('no rm -rf: delete files one by one');
  });

  test.concurrent('an allowed call runs', async () => {
    const { marker, requests } = await scenario({ 'hookline.toml': GUARDS }, 'touch allowed-marker');
    expect(marker('allowed-marker')).toBe(true);
    expect(requests.length).toBe(2);
  });

  test.concurrent('a rewrite of the tool input (updatedInput) takes effect', async () => {
    const { marker } = await scenario({ 'hookline.toml': GUARDS }, 'touch original-marker');
    expect(marker('rewritten-marker')).toBe(true);
    expect(marker('original-marker')).toBe(false);
  });

  test.concurrent("post-tool additionalContext reaches the model's next request", async () => {
    const { requests, marker } = await scenario({ 'hookline.toml': GUARDS }, 'touch context-marker');
    expect(marker('context-marker')).toBe(true);
    expect(lastRequestText(requests)).toContain('HOOKLINE-CONTEXT: the build is green');
  });

  test.concurrent('a broken config fails closed: the tool is blocked with the reason', async () => {
    const broken = `${GUARDS}\n[[hooks]\nevent = "pre_tool_use"\n`;
    const { marker, requests } = await scenario({ 'hookline.toml': broken }, 'touch broken-marker');
    expect(marker('broken-marker')).toBe(false);
    expect(toolResults(requests).join('\n')).toContain("Hookline's hook configuration cannot be loaded");
  });

  test.concurrent('a bridge that cannot start still blocks (the entry has onFailure: "block")', async () => {
    const { marker, project, requests } = await scenario({ 'hookline.toml': GUARDS }, 'touch unstarted-marker', [
      '--command',
      '/nonexistent/hookline',
    ]);
    expect(readFileSync(join(project.dir, '.claude/settings.json'), 'utf8')).toContain(
      '/nonexistent/hookline bridge claude',
    );
    expect(marker('unstarted-marker')).toBe(false);
    // The call was made and answered: the model got its (refused) tool result.
    expect(toolResults(requests)).toHaveLength(1);
  });

  test.concurrent(
    "Claude Code's own dialect: a PostToolUse block's reason and a prompt's block reach Claude Code",
    async () => {
      const claudeHooks = JSON.stringify({
        hooks: {
          PostToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: `echo 'lint failed: fix it' >&2; exit 2` }] },
          ],
        },
      });
      const install = ['--config', 'claude-hooks.json', '--preset', 'claude'];
      const { marker, requests } = await scenario({ 'claude-hooks.json': claudeHooks }, 'touch post-marker', install);
      expect(marker('post-marker')).toBe(true);
      expect(lastRequestText(requests)).toContain('lint failed: fix it');
      const promptHooks = JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo 'no secrets in prompts' >&2; exit 2` }] }],
        },
      });
      const prompt = await scenario({ 'claude-hooks.json': promptHooks }, 'touch prompt-marker', install);
      expect(prompt.marker('prompt-marker')).toBe(false);
      expect(prompt.requests).toHaveLength(0);
      expect(prompt.result.stdout + prompt.result.stderr).toContain('no secrets in prompts');
    },
  );

  test.concurrent('continue: false ends the session after the hook: the model gets no further request', async () => {
    const claudeHooks = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo '{"continue": false, "stopReason": "halted by policy"}'` }],
          },
        ],
      },
    });
    const { result, requests } = await scenario({ 'claude-hooks.json': claudeHooks }, 'touch halt-marker', [
      '--config',
      'claude-hooks.json',
      '--preset',
      'claude',
    ]);
    expect(result.result).toMatchObject({ terminal_reason: 'hook_stopped' });
    expect(requests).toHaveLength(1);
  });

  test.concurrent("a config in Claude Code's own dialect (--preset claude) works through the bridge", async () => {
    const claudeHooks = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `grep -q forbidden-marker && { echo 'native guard says no' >&2; exit 2; } || exit 0`,
              },
            ],
          },
        ],
      },
    });
    const { marker, requests } = await scenario({ 'guards/claude-hooks.json': claudeHooks }, 'touch forbidden-marker', [
      '--config',
      'guards/claude-hooks.json',
      '--preset',
      'claude',
    ]);
    expect(marker('forbidden-marker')).toBe(false);
    expect(toolResults(requests).join('\n')).toContain('native guard says no');
  });
});
