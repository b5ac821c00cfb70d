// The `claude` preset's command protocol with real `bash` processes: the host's JSON on stdin as
// given, CLAUDE_PROJECT_DIR and the working directory, exit codes 0 / 2 / other, the JSON answer
// format, plain stdout as context, and on_error for a crashing guard.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHookEngine, loadConfig, type EmitOutcome } from '@hookline/core';
import { describe, expect, test } from 'vitest';
import { commandRunner } from './command-runner.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();

type Hook = Record<string, unknown>;

/** Loads Claude Code settings with `hooks`, emits `event` with `input`, returns the settled outcome. */
async function emitClaude(
  hooks: Record<string, unknown>,
  event: string,
  input: Record<string, unknown>,
): Promise<EmitOutcome> {
  const runner = commandRunner({ environment: { PATH: process.env['PATH'] }, killGraceMs: 200 });
  const config = loadConfig([{ text: JSON.stringify({ hooks }), source: '.claude/settings.json' }], {
    runners: [runner],
  });
  const engine = createHookEngine({ config, runners: [runner] });
  try {
    return await (
      await engine.emit(event, { session_id: 'abc123', hook_event_name: event, ...input })
    ).settled;
  } finally {
    await engine.close();
  }
}

const one = (event: string, hook: Hook, matcher?: string) => ({
  [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', ...hook }] }],
});

describe('claude preset with real commands', () => {
  test('stdin is the host JSON without Hookline fields; CLAUDE_PROJECT_DIR and the directory are the context cwd', async () => {
    const directory = scratch();
    const record = join(directory, 'record');
    const input = {
      transcript_path: '/tmp/t.jsonl',
      cwd: directory,
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'ls', nested: [1, { a: null }] },
      tool_use_id: 'toolu_1',
    };
    await emitClaude(
      one(
        'PreToolUse',
        { command: `cat > ${record}.json; printf '%s\\n%s' "$CLAUDE_PROJECT_DIR" "$PWD" > ${record}.env` },
        'Bash',
      ),
      'PreToolUse',
      input,
    );
    expect(JSON.parse(readFileSync(`${record}.json`, 'utf8'))).toEqual({
      session_id: 'abc123',
      hook_event_name: 'PreToolUse',
      ...input,
    });
    expect(readFileSync(`${record}.env`, 'utf8')).toBe(`${directory}\n${directory}`);
  });

  test('without a cwd, CLAUDE_PROJECT_DIR is the host working directory and hook_event_name is filled in', async () => {
    const record = join(scratch(), 'record');
    const runner = commandRunner({ environment: { PATH: process.env['PATH'] } });
    const config = loadConfig(
      [
        {
          text: JSON.stringify({
            hooks: one('Stop', { command: `cat > ${record}.json; printf %s "$CLAUDE_PROJECT_DIR" > ${record}.env` }),
          }),
          source: 's.json',
        },
      ],
      { runners: [runner] },
    );
    const engine = createHookEngine({ config, runners: [runner] });
    await engine.emit('Stop', { session_id: 's', stop_hook_active: false });
    await engine.close();
    expect(JSON.parse(readFileSync(`${record}.json`, 'utf8'))).toEqual({
      hook_event_name: 'Stop',
      session_id: 's',
      stop_hook_active: false,
    });
    expect(readFileSync(`${record}.env`, 'utf8')).toBe(process.cwd());
  });

  test('exit 2 blocks with stderr as the reason where the event can block, else it is a message for the user', async () => {
    const guard = { command: 'echo "rm -rf is not allowed" >&2; echo ignored; exit 2' };
    const blocked = await emitClaude(one('PreToolUse', guard), 'PreToolUse', { tool_name: 'Bash' });
    expect([blocked.decision, blocked.reason]).toEqual(['block', 'rm -rf is not allowed']);
    expect(blocked.hooks[0]).toMatchObject({ status: 'ok', exit_code: 2, stderr: 'rm -rf is not allowed' });
    const note = await emitClaude(one('Notification', guard), 'Notification', { message: 'hi' });
    expect(note).toMatchObject({ decision: 'proceed', system_messages: ['rm -rf is not allowed'], warnings: [] });
  });

  test('any other exit code lets the action through but reports the hook failed, with stderr; on_error "block" fails closed', async () => {
    const crash = { command: 'echo "Traceback: KeyError tool_input" >&2; exit 1' };
    const open = await emitClaude(one('PreToolUse', crash), 'PreToolUse', { tool_name: 'Bash' });
    expect(open.decision).toBe('proceed');
    expect(open.hooks[0]).toMatchObject({
      status: 'failed',
      exit_code: 1,
      error: 'hook exited with code 1: Traceback: KeyError tool_input',
    });
    expect(open.warnings).toEqual([
      expect.stringContaining(
        'failed: hook exited with code 1: Traceback: KeyError tool_input — on_error made it "proceed"',
      ),
    ]);
    const closed = await emitClaude(one('PreToolUse', { ...crash, on_error: 'block' }), 'PreToolUse', {
      tool_name: 'Bash',
    });
    expect([closed.decision, closed.reason]).toEqual([
      'block',
      'hook exited with code 1: Traceback: KeyError tool_input',
    ]);
  });

  test('a timeout (seconds) fails open by default', async () => {
    const outcome = await emitClaude(one('PreToolUse', { command: 'sleep 5', timeout: 0.3 }), 'PreToolUse', {
      tool_name: 'Bash',
    });
    expect(outcome.decision).toBe('proceed');
    expect(outcome.hooks[0]).toMatchObject({ status: 'timed_out', error: 'hook timed out after 300 ms' });
  });

  test('exit 0 with JSON: permissionDecision, updatedInput, additionalContext, continue and systemMessage', async () => {
    const answer = {
      continue: false,
      stopReason: 'budget spent',
      systemMessage: 'rewrote your command',
      suppressOutput: true,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'touches prod',
        updatedInput: { command: 'ls -la' },
        additionalContext: 'prod is frozen',
      },
    };
    const outcome = await emitClaude(one('PreToolUse', { command: `echo '${JSON.stringify(answer)}'` }), 'PreToolUse', {
      tool_name: 'Bash',
    });
    expect(JSON.parse(JSON.stringify(outcome))).toMatchObject({
      decision: 'ask',
      reason: 'touches prod',
      updated_input: { command: 'ls -la' },
      additional_context: ['prod is frozen'],
      continue: false,
      stop_reason: 'budget spent',
      system_messages: ['rewrote your command'],
      warnings: [],
    });
    expect(outcome.hooks[0]).toMatchObject({ suppress_output: true });
  });

  test('a misplaced permissionDecision cannot be honoured: the hook failed, saying where it belongs', async () => {
    const outcome = await emitClaude(
      one('PreToolUse', { command: `echo '{"permissionDecision": "deny"}'` }),
      'PreToolUse',
      { tool_name: 'Bash' },
    );
    expect(outcome.decision).toBe('proceed');
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toContain('permissionDecision belongs inside hookSpecificOutput');
    expect(outcome.warnings.join('\n')).toContain('permissionDecision belongs inside hookSpecificOutput');
  });

  test('an unknown output field is ignored with a warning that reaches the outcome', async () => {
    const outcome = await emitClaude(one('PreToolUse', { command: `echo '{"sytemMessage": "hi"}'` }), 'PreToolUse', {
      tool_name: 'Bash',
    });
    expect(outcome.hooks[0]?.status).toBe('ok');
    expect(outcome.hooks[0]?.warnings).toEqual([
      'unknown output field sytemMessage — did you mean systemMessage?; ignored',
    ]);
    expect(outcome.warnings).toEqual([
      `hook "${outcome.hooks[0]?.name}": unknown output field sytemMessage — did you mean systemMessage?; ignored`,
    ]);
  });

  test('plain stdout is context on UserPromptSubmit and SessionStart, and ignored elsewhere', async () => {
    const print = { command: 'echo "branch: main"' };
    expect(
      (await emitClaude(one('UserPromptSubmit', print), 'UserPromptSubmit', { prompt: 'hi' })).additional_context,
    ).toEqual(['branch: main']);
    expect(
      (await emitClaude(one('SessionStart', print), 'SessionStart', { source: 'startup' })).additional_context,
    ).toEqual(['branch: main']);
    expect(
      (await emitClaude(one('PostToolUse', print), 'PostToolUse', { tool_name: 'Bash' })).additional_context,
    ).toBeUndefined();
  });

  test('stdout that starts like JSON but is not is a failed hook, not context', async () => {
    const outcome = await emitClaude(one('SessionStart', { command: `echo '{not json'` }), 'SessionStart', {
      source: 'startup',
    });
    expect(outcome.additional_context).toBeUndefined();
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toMatch(/^stdout starts like a JSON answer but is not valid JSON/);
  });
});
