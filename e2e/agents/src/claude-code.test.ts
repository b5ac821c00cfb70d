import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  claudeProblem,
  claudeProject,
  claudeRequired,
  runClaude,
  type ClaudeProject,
  type ClaudeRunOptions,
} from './support/claude-code.ts';
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

// Hooks in Claude Code's own dialect, run by the bridge under preset claude: one command for `event`.
function nativeHooks(event: string, command: string, matcher: string | undefined = 'Bash'): string {
  return JSON.stringify({
    hooks: { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] }] },
  });
}
const NATIVE = ['--config', 'claude-hooks.json', '--preset', 'claude'];

// A command that prints `answer` as JSON: the hook's answer in Claude Code's dialect, built by node so
// that it may be long.
function printJson(answer: string): string {
  return `node -e 'console.log(JSON.stringify(${answer}))'`;
}

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

  /**
   * A project with `files`, Hookline installed with `install` arguments (false: not installed, the
   * files hold Claude Code's settings), and one scenario run.
   */
  async function scenario(
    files: Record<string, string>,
    command: string,
    install: string[] | false = [],
    run: ClaudeRunOptions = {},
  ) {
    const project = claudeProject(mock.url, files);
    projects.push(project);
    if (install !== false) await project.hookline('install', 'claude', ...install);
    const key = mock.scenario({ command });
    const result = await runClaude(project, `Run the command for ${key}.`, run);
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
  test.concurrent(
    'timeout is in seconds: timeout 1 cuts a 5 s hook and onFailure "block" refuses the call; timeout 30 lets it finish',
    async () => {
      // Claude Code's own entries, no Hookline: the fact is about Claude Code's reading of `timeout`.
      const settings = (timeout: number) => ({
        '.claude/settings.json': JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [{ type: 'command', command: 'sleep 5; touch hook-done', timeout, onFailure: 'block' }],
              },
            ],
          },
        }),
      });
      const [cut, finished] = await Promise.all([
        scenario(settings(1), 'touch cut-marker', false),
        scenario(settings(30), 'touch finished-marker', false),
      ]);
      // In milliseconds, 30 would cut a 5 s hook too; in minutes, 1 would not cut it.
      expect(cut.marker('cut-marker')).toBe(false);
      expect(toolResults(cut.requests).join('\n')).toContain('timed out');
      expect(finished.marker('hook-done')).toBe(true);
      expect(finished.marker('finished-marker')).toBe(true);
    },
  );

  test.concurrent(
    "hookline install claude writes a timeout above the bridge's deadline: a slow hook is refused by the bridge, not cut by Claude Code",
    async () => {
      const slow = `preset = "agent"

[[hooks]]
name = "slow"
event = "pre_tool_use"
[hooks.action]
type = "shell"
command = "sleep 30"
`;
      const { marker, project, requests } = await scenario({ 'hookline.toml': slow }, 'touch slow-marker', [
        '--deadline',
        '2',
      ]);
      const installed = JSON.parse(readFileSync(join(project.dir, '.claude/settings.json'), 'utf8')) as {
        hooks: { PreToolUse: [{ hooks: [{ command: string; timeout: number }] }] };
      };
      const entry = installed.hooks.PreToolUse[0].hooks[0];
      expect(entry.command).toBe('hookline bridge claude --deadline 2');
      expect(entry.timeout).toBeGreaterThan(2);
      expect(marker('slow-marker')).toBe(false);
      // The bridge's own deny (its reason names the deadline), not Claude Code's "timed out".
      const results = toolResults(requests).join('\n');
      expect(results).toContain("the bridge's deadline");
      expect(results).not.toContain('timed out');
    },
  );

  test.concurrent(
    'systemMessage is shown to the user (a notice in stream-json --verbose), never sent to the model',
    async () => {
      const hooks = nativeHooks(
        'PreToolUse',
        `echo '{"systemMessage": "HOOKLINE-NOTICE: the guard is in audit mode"}'`,
      );
      const { result, requests, marker } = await scenario(
        { 'claude-hooks.json': hooks },
        'touch notice-marker',
        NATIVE,
        {
          stream: true,
        },
      );
      expect(marker('notice-marker')).toBe(true);
      expect(result.messages).toContainEqual(
        expect.objectContaining({
          type: 'system',
          subtype: 'informational',
          content: expect.stringContaining('HOOKLINE-NOTICE: the guard is in audit mode') as unknown,
        }),
      );
      expect(JSON.stringify(requests.map((request) => request.body))).not.toContain('HOOKLINE-NOTICE');
    },
  );

  test.concurrent(
    'headless, permissionDecision "ask" refuses the call (even an allowed tool) and "allow" runs a tool not in --allowedTools',
    async () => {
      const answer = (decision: string) =>
        nativeHooks(
          'PreToolUse',
          `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "${decision}", "permissionDecisionReason": "HOOKLINE-${decision}"}}'`,
        );
      const [ask, allow] = await Promise.all([
        scenario({ 'claude-hooks.json': answer('ask') }, 'touch ask-marker', NATIVE),
        scenario({ 'claude-hooks.json': answer('allow') }, 'touch allow-marker', NATIVE, { allowedTools: [] }),
      ]);
      // No one can answer a prompt in -p: "ask" is a refusal, reported as a permission denial.
      expect(ask.marker('ask-marker')).toBe(false);
      expect(ask.result.result?.['permission_denials']).toEqual([expect.objectContaining({ tool_name: 'Bash' })]);
      expect(toolResults(ask.requests).join('\n')).toContain('HOOKLINE-ask');
      expect(allow.marker('allow-marker')).toBe(true);
      expect(allow.result.result?.['permission_denials']).toEqual([]);
    },
  );

  test.concurrent(
    "PermissionRequest fires headless for a tool not in --allowedTools: a deny (also Hookline's, for an answer it cannot read) refuses the call, an allow runs it",
    async () => {
      const answer = (decision: string) =>
        nativeHooks(
          'PermissionRequest',
          `touch asked-marker; echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": ${decision}}}'`,
        );
      const [deny, allow, garbled, unanswered] = await Promise.all([
        scenario(
          { 'claude-hooks.json': answer('{"behavior": "deny", "message": "HOOKLINE-DENIED: ask the owner first"}') },
          'touch denied-marker',
          NATIVE,
          { allowedTools: [] },
        ),
        scenario({ 'claude-hooks.json': answer('{"behavior": "allow"}') }, 'touch granted-marker', NATIVE, {
          allowedTools: [],
        }),
        // An answer Hookline cannot read is a failed hook: the bridge answers a deny, never an approval.
        scenario({ 'claude-hooks.json': answer('{"behavior": "maybe"}') }, 'touch garbled-marker', NATIVE, {
          allowedTools: [],
        }),
        // No decision: Claude Code refuses on its own, as it does headless with no hook at all.
        scenario(
          { 'claude-hooks.json': nativeHooks('PermissionRequest', 'touch asked-marker') },
          'touch unanswered-marker',
          NATIVE,
          { allowedTools: [] },
        ),
      ]);
      expect(deny.marker('asked-marker')).toBe(true);
      expect(deny.marker('denied-marker')).toBe(false);
      expect(toolResults(deny.requests).join('\n')).toContain('HOOKLINE-DENIED: ask the owner first');
      expect(allow.marker('asked-marker')).toBe(true);
      expect(allow.marker('granted-marker')).toBe(true);
      expect(garbled.marker('garbled-marker')).toBe(false);
      expect(toolResults(garbled.requests).join('\n')).toContain('an answer that cannot be honoured');
      expect(unanswered.marker('asked-marker')).toBe(true);
      expect(unanswered.marker('unanswered-marker')).toBe(false);
      expect(toolResults(unanswered.requests).join('\n')).toContain('needs approval');
    },
  );

  test.concurrent(
    'disableAllHooks: true in a settings file: no hook runs, and hookline doctor claude reports it',
    async () => {
      const guard = `preset = "agent"

[[hooks]]
name = "refuse-all"
event = "pre_tool_use"
[hooks.action]
type = "shell"
command = "touch hook-ran; echo 'refused by Hookline' >&2; exit 2"
`;
      // The shared project file, and the personal one that is not committed: Claude Code reads both.
      const runs = await Promise.all(
        ['.claude/settings.json', '.claude/settings.local.json'].map(async (file) => {
          const files = { 'hookline.toml': guard, [file]: JSON.stringify({ disableAllHooks: true }) };
          const { marker, project } = await scenario(files, 'touch unguarded-marker');
          // Read before doctor runs: its synthetic call runs the hooks itself.
          const markers = { hookRan: marker('hook-ran'), toolRan: marker('unguarded-marker') };
          const doctor = await project.hookline('doctor', 'claude').then(
            () => ({ code: 0, stdout: '' }),
            (error: { code: number; stdout: string }) => error,
          );
          return { file, markers, doctor };
        }),
      );
      for (const { file, markers, doctor } of runs) {
        expect(markers).toEqual({ hookRan: false, toolRan: true });
        expect(doctor.code).toBe(1);
        expect(doctor.stdout).toContain(`${file}: "disableAllHooks": true`);
      }
    },
  );

  test.concurrent(
    "a settings hook's long deny reason and long additionalContext reach the model whole (not cut at 2 000 / 8 000)",
    async () => {
      // 30 lines of 100 characters: above the binary's limits of 2 000 code units and 20 lines.
      const reason = `"REASON-START" + "0123456789".repeat(10).concat("\\n").repeat(30) + "REASON-END"`;
      const deny = nativeHooks(
        'PreToolUse',
        printJson(
          `{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ${reason}}}`,
        ),
      );
      // 9 000 characters: above the limit of 8 000.
      const context = nativeHooks(
        'PostToolUse',
        printJson(
          `{hookSpecificOutput: {hookEventName: "PostToolUse", additionalContext: "CONTEXT-START" + "abcdefghij".repeat(900) + "CONTEXT-END"}}`,
        ),
      );
      const [denied, told] = await Promise.all([
        scenario({ 'claude-hooks.json': deny }, 'touch long-deny-marker', NATIVE),
        scenario({ 'claude-hooks.json': context }, 'touch long-context-marker', NATIVE),
      ]);
      expect(denied.marker('long-deny-marker')).toBe(false);
      const result = toolResults(denied.requests).join('\n');
      expect(result).toContain(`REASON-START${`${'0123456789'.repeat(10)}\n`.repeat(30)}REASON-END`);
      expect(told.marker('long-context-marker')).toBe(true);
      const sent = JSON.stringify(told.requests.at(-1)?.body.messages ?? []);
      expect(sent).toContain(`CONTEXT-START${'abcdefghij'.repeat(900)}CONTEXT-END`);
    },
  );
});
