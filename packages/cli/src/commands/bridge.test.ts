// `hookline bridge claude` through the built CLI, as Claude Code runs it: the payload on stdin, the
// answer on stdout. Every way Hookline can fail must answer a guard with a refusal and a reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isRunning, killGroup, waitFor } from '../../test-support/processes.ts';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const call = (event: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ hook_event_name: event, session_id: 's-1', cwd: scratch.path, ...fields });
const bash = (command: string) => call('PreToolUse', { tool_name: 'Bash', tool_input: { command, description: 'd' } });
const bridge = (input: string, args: string[] = []) =>
  runCli(['bridge', 'claude', ...args], { cwd: scratch.path, input });

const agentConfig = (hooks: string) => `preset = "agent"\n${hooks}`;
const shellGuard = (command: string, more = '') =>
  `\n[[hooks]]\nname = "guard"\nevent = "pre_tool_use"\ntool_name = "shell"\n${more}[hooks.action]\ntype = "shell"\ncommand = '''${command}'''\n`;

/** The permission decision and its reason in a PreToolUse answer. */
function permission(stdout: string): { decision: string; reason: string } {
  const specific = JSON.parse(stdout).hookSpecificOutput;
  expect(specific.hookEventName).toBe('PreToolUse');
  return { decision: specific.permissionDecision, reason: specific.permissionDecisionReason };
}

describe('answers in Claude Code wire format', () => {
  test('a canonical guard on `shell` denies Bash with its reason; the agent names are in the context', async () => {
    scratch.write(
      'hookline.toml',
      agentConfig(
        shellGuard(`cat > seen.json; grep -q 'rm -rf' seen.json && { echo 'no rm -rf' >&2; exit 2; } || exit 0`),
      ),
    );
    const result = await bridge(bash('rm -rf /'));
    expect(result.code).toBe(0);
    expect(permission(result.stdout)).toEqual({ decision: 'deny', reason: 'no rm -rf' });
    const seen = JSON.parse(readFileSync(join(scratch.path, 'seen.json'), 'utf8'));
    expect(seen).toMatchObject({
      event: 'pre_tool_use',
      tool_name: 'shell',
      tool_input: { command: 'rm -rf /' },
      agent: 'claude',
      agent_event: 'PreToolUse',
      agent_tool_name: 'Bash',
    });
  });

  test('a hook naming the agent\'s own tool (tool_name = "Bash") fires too', async () => {
    scratch.write(
      'hookline.toml',
      agentConfig(shellGuard(`echo 'only via Bash' >&2; exit 2`).replace('tool_name = "shell"', 'tool_name = "Bash"')),
    );
    expect(permission((await bridge(bash('ls'))).stdout)).toEqual({ decision: 'deny', reason: 'only via Bash' });
  });

  test('proceed prints nothing at exit 0, even when a hook printed text on its stdout', async () => {
    scratch.write('hookline.toml', agentConfig(shellGuard(`echo "some log line"; exit 0`)));
    const result = await bridge(bash('ls'));
    expect(result).toMatchObject({ code: 0, stdout: '' });
  });

  test('a rewrite is merged over the call input; extras the event honours are passed on', async () => {
    scratch.write(
      'hookline.toml',
      agentConfig(
        shellGuard(
          `echo '{"decision":"proceed","updated_input":{"command":"ls -la"},"additional_context":"ctx","system_message":"note"}'`,
        ),
      ),
    );
    const body = JSON.parse((await bridge(bash('ls'))).stdout);
    expect(body).toEqual({
      systemMessage: 'note',
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { command: 'ls -la', description: 'd' },
        additionalContext: 'ctx',
      },
    });
  });

  test('no config anywhere: nothing to guard with, the call goes on and stderr says where it looked', async () => {
    const result = await bridge(bash('ls'));
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain('hookline.toml');
  });

  test('an event the config preset has no equivalent of runs nothing and answers nothing', async () => {
    scratch.write('hookline.toml', agentConfig(shellGuard('exit 2')));
    const result = await bridge(call('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(result).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('failure is never approval', () => {
  test('a payload that is not JSON: exit 2 with the reason on stderr, nothing on stdout', async () => {
    scratch.write('hookline.toml', agentConfig(shellGuard('exit 0')));
    const result = await bridge('not json');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('not JSON');
  });

  test('a config that does not load denies a guard with the problem, and only warns on other events', async () => {
    scratch.write('hookline.toml', 'preset = "agent"\n[[hooks]\n');
    const guard = permission((await bridge(bash('ls'))).stdout);
    expect(guard.decision).toBe('deny');
    expect(guard.reason).toContain("Hookline's hook configuration cannot be loaded");
    expect(guard.reason).toContain('hookline.toml:2');
    const other = await bridge(call('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(other.code).toBe(0);
    expect(JSON.parse(other.stdout)).toEqual({ systemMessage: expect.stringContaining('none of its hooks ran') });
  });

  test("Claude Code's own dialect: a hook that times out or answers garbage denies (on_error still decides)", async () => {
    const settings = (command: string, more: Record<string, unknown> = {}) =>
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...more }] }] },
      });
    scratch.write('slow.json', settings('sleep 30', { timeout: 1 }));
    const slow = permission((await bridge(bash('ls'), ['--config', 'slow.json'])).stdout);
    expect(slow.decision).toBe('deny');
    expect(slow.reason).not.toBe('');
    scratch.write('garbage.json', settings(`echo '{"hookSpecificOutput": {"permissionDecision": "DENY"}}'`));
    expect(permission((await bridge(bash('ls'), ['--config', 'garbage.json'])).stdout).decision).toBe('deny');
    scratch.write(
      'lenient.json',
      settings(`echo '{"hookSpecificOutput": {"permissionDecision": "DENY"}}'`, { on_error: 'proceed' }),
    );
    expect((await bridge(bash('ls'), ['--config', 'lenient.json'])).stdout).toBe('');
  });

  test('the deadline denies at once and leaves no hook process behind', async () => {
    scratch.write(
      'hookline.toml',
      agentConfig(shellGuard(`echo $$ > hook.pid; exec sleep 60`, 'timeout_ms = 120000\n')),
    );
    const result = await bridge(bash('ls'), ['--deadline', '2']);
    try {
      const answer = permission(result.stdout);
      expect(answer.decision).toBe('deny');
      expect(answer.reason).toContain('did not decide within 2 s');
      const pid = Number(readFileSync(join(scratch.path, 'hook.pid'), 'utf8'));
      await waitFor('the hook process to end', () => !isRunning(pid));
    } finally {
      const pid = Number(readFileSync(join(scratch.path, 'hook.pid'), 'utf8'));
      if (pid > 0) killGroup(pid);
    }
  });

  test("a config for a preset that is not an agent's denies, naming the presets that work", async () => {
    scratch.write('hookline.toml', 'preset = "arc"\n');
    const answer = permission((await bridge(bash('ls'))).stdout);
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toMatch(/preset "agent" or "claude"/);
  });

  test('an unknown agent: exit 2 with the known agents on stderr', async () => {
    const result = await runCli(['bridge', 'nope'], { cwd: scratch.path, input: '{}' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('known agents: gemini, codex, cursor, copilot, windsurf, claude');
  });
});

describe('an agent settings file holding the bridge entry itself', () => {
  test('read as the config, its bridge entries are skipped with a warning, not run as hooks calling the bridge again', async () => {
    const launcher = fileURLToPath(new URL('../../bin/hookline.js', import.meta.url));
    const settings = join(scratch.path, '.claude', 'settings.json');
    const entry = `${process.execPath} ${launcher} bridge claude --preset claude --config ${settings}`;
    scratch.write(
      '.claude/settings.json',
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: entry },
                { type: 'command', command: `echo called >> ${join(scratch.path, 'guard-ran')}; exit 0` },
              ],
            },
          ],
        },
      }),
    );
    const result = await bridge(bash('ls'), ['--preset', 'claude', '--config', settings, '--deadline', '20']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/skipped .*`hookline bridge` itself/);
    // The user's own hook ran once; the bridge entry did not start a bridge (which would have run it again).
    expect(readFileSync(join(scratch.path, 'guard-ran'), 'utf8')).toBe('called\n');
    expect(result.stdout.includes('"deny"')).toBe(false);
  });
});
