import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import { standInCommandRunner } from '../../../test-support/stand-in-runners.ts';
import type { CommandExit } from '../preset.ts';
import { codexPreset } from './codex-preset.ts';

const exit = (fields: Partial<CommandExit>): CommandExit => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  ...fields,
});
const read = (event: string, fields: Partial<CommandExit>) =>
  codexPreset.command.readExit(exit(fields), { event, preset: codexPreset, maxOutputBytes: 1_000_000 });
const write = (event: string, fields: Partial<EmitOutcome>) =>
  JSON.parse(
    codexPreset.writeAnswer!({ event, decision: 'proceed', hooks: [], warnings: [], ...fields }, event).stdout!,
  );
const deny = (reason: unknown) =>
  JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });

describe('codex hooks.json', () => {
  test('.codex/hooks.json loads unchanged as preset codex, timeouts in seconds', () => {
    const config = loadConfig(
      [
        {
          text: JSON.stringify({
            hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5 }] }] },
          }),
          source: '/work/project/.codex/hooks.json',
        },
      ],
      { runners: [standInCommandRunner().runner] },
    );
    expect(config.preset).toBe('codex');
    expect(config.hooks.map((hook) => [hook.name, hook.matcher, hook.timeoutMs, hook.onError])).toEqual([
      ['PreToolUse:Bash:guard.sh', '^(?:Bash)$', 5000, 'proceed'],
    ]);
  });
});

describe('a command is read as Codex reads it', () => {
  test('exit 2 with a reason, a deny with a reason and decision block block', () => {
    expect(read('PreToolUse', { exitCode: 2, stderr: 'no' })).toMatchObject({
      decision: { decision: 'block', reason: 'no' },
    });
    expect(read('PreToolUse', { stdout: deny('no') })).toMatchObject({ decision: { decision: 'block', reason: 'no' } });
    expect(read('PreToolUse', { stdout: '{"decision":"block","reason":"no"}' })).toMatchObject({
      decision: { decision: 'block', reason: 'no' },
    });
  });

  test('what Codex refuses, and then runs the tool on, is a failed hook: on_error decides', () => {
    for (const stdout of [
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}',
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}',
      deny(''),
      '{"decision":"approve"}',
      '{"continue":false}',
    ])
      expect(read('PreToolUse', { stdout })).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/Codex refuses/),
      });
    expect(read('PreToolUse', { exitCode: 1 })).toMatchObject({ status: 'failed' });
    expect(read('PreToolUse', { exitCode: 2 })).toMatchObject({ status: 'failed' });
    expect(read('PreToolUse', { stdout: 'not json' })).toMatchObject({
      status: 'ok',
      decision: { decision: 'proceed' },
    });
  });
});

describe('the merged outcome is written as Codex honours it', () => {
  test('block and ask become a deny with a non-empty reason; a rewrite is allow with updatedInput', () => {
    expect(write('PreToolUse', { decision: 'block', reason: ' ' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'blocked by Hookline',
      },
    });
    expect(write('PreToolUse', { decision: 'ask', reason: 'r' }).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(write('PreToolUse', { updated_input: { command: 'ls' } }).hookSpecificOutput).toMatchObject({
      permissionDecision: 'allow',
      updatedInput: { command: 'ls' },
    });
    // Codex refuses a bare allow: nothing is said.
    expect(write('PreToolUse', { decision: 'allow' })).toEqual({});
  });

  test('PostToolUse: a block replaces the output, context goes to the model', () => {
    expect(write('PostToolUse', { decision: 'block', reason: 'secret', additional_context: ['c'] })).toEqual({
      decision: 'block',
      reason: 'secret',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' },
    });
  });

  test('every answer written reads back without a problem', () => {
    for (const fields of [{ decision: 'block', reason: 'r' }, { updated_input: { command: 'x' } }, {}] as const) {
      const stdout = JSON.stringify(write('PreToolUse', fields));
      expect(read('PreToolUse', { stdout })).toMatchObject({ status: 'ok' });
    }
  });
});
