// Guards that must not fail open, through the built CLI: an answer that cannot be honoured is a
// failed hook whose on_error decides, with the reason in the outcome's warnings and on stderr.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const settings = (hooks: unknown): string => `${JSON.stringify({ hooks }, null, 2)}\n`;
const guard = (stdout: string, more: Record<string, unknown> = {}) => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `printf '%s' '${stdout}'`, ...more }] }] });
const BASH = ['--set', 'tool_name=Bash', '--set', 'tool_input={"command":"rm -rf /"}'];

describe('an answer meant as a decision that cannot be honoured', () => {
  test.each([
    ['trailing comma', '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",}}', 'not valid JSON'],
    ['wrong case', '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "DENY"}}', 'got "DENY"'],
    ['unknown value', '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "nope"}}', 'got "nope"'],
    ['decision given a number', '{"decision": 0}', 'got 0'],
    ['nested wrong type', '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "decision": "deny"}}', 'decision must be an object'],
    ['JSON array', '["deny"]', 'JSON array'],
  ])('%s: on_error block blocks (exit 2); on_error proceed proceeds (exit 0); both say why', async (_name, stdout, problem) => {
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

    const json = await runCli(['emit', 'PreToolUse', '--config', 'open.json', '--json', ...BASH], { cwd: scratch.path });
    const outcome = JSON.parse(json.stdout) as { hooks: Array<{ status: string }>; warnings: string[] };
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.warnings.join('\n')).toContain(problem);
  });

  test('a deny cut at the output cap blocks under on_error block', async () => {
    const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' }, systemMessage: 'x'.repeat(300) });
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
    scratch.write('hookline.toml', `[[hooks]]\nname = "guard"\nevent = "stage_start"\ncommand = '''printf '%s' '{"decision": "Block"}' '''\n`);
    const result = await runCli(['emit', 'stage_start', '--set', 'node_id=deploy'], { cwd: scratch.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('hook "guard" failed: stdout is an invalid decision: "decision" must be one of');
  });
});
