import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import { standInCommandRunner } from '../../../test-support/stand-in-runners.ts';
import type { CommandExit } from '../preset.ts';
import { cursorPreset } from './cursor-preset.ts';

// Cursor has no command-line client to run: these tests hold the preset to Cursor's published hooks
// reference, with the payloads and answers it documents.
const exit = (fields: Partial<CommandExit>): CommandExit => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  ...fields,
});
const read = (event: string, fields: Partial<CommandExit>) =>
  cursorPreset.command.readExit(exit(fields), { event, preset: cursorPreset, maxOutputBytes: 1_000_000 });
const write = (event: string, fields: Partial<EmitOutcome>) =>
  JSON.parse(
    cursorPreset.writeAnswer!({ event, decision: 'proceed', hooks: [], warnings: [], ...fields }, event).stdout!,
  );

describe('cursor hooks.json', () => {
  test('.cursor/hooks.json loads unchanged: flat hook lists, failClosed as on_error block', () => {
    const config = loadConfig(
      [
        {
          text: JSON.stringify({
            version: 1,
            hooks: {
              beforeShellExecution: [{ command: './guard.sh', timeout: 10, failClosed: true }],
              preToolUse: [{ command: 'audit.sh', matcher: 'Shell' }],
            },
          }),
          source: '/work/project/.cursor/hooks.json',
        },
      ],
      { runners: [standInCommandRunner().runner] },
    );
    expect(config.preset).toBe('cursor');
    expect(config.problems).toBeUndefined();
    expect(config.hooks.map((hook) => [hook.name, hook.event, hook.matcher, hook.timeoutMs, hook.onError])).toEqual([
      ['beforeShellExecution:*:./guard.sh', 'beforeShellExecution', undefined, 10_000, 'block'],
      ['preToolUse:Shell:audit.sh', 'preToolUse', '^(?:Shell)$', 60_000, 'proceed'],
    ]);
  });
});

describe('a command is read as Cursor documents it', () => {
  test('permission deny with agent_message, exit 2, continue false and followup_message', () => {
    expect(
      read('beforeShellExecution', { stdout: '{"permission":"deny","agent_message":"no","user_message":"u"}' }),
    ).toMatchObject({
      decision: { decision: 'block', reason: 'no', system_message: 'u' },
    });
    expect(read('beforeShellExecution', { exitCode: 2, stderr: 'no' })).toMatchObject({
      decision: { decision: 'block' },
    });
    expect(read('beforeSubmitPrompt', { stdout: '{"continue":false,"user_message":"later"}' })).toMatchObject({
      decision: { decision: 'block', reason: 'later' },
    });
    expect(read('stop', { stdout: '{"followup_message":"run the tests"}' })).toMatchObject({
      decision: { decision: 'block', reason: 'run the tests' },
    });
    expect(read('preToolUse', { stdout: '{"permission":"allow","updated_input":{"command":"ls"}}' })).toMatchObject({
      decision: { decision: 'allow', updated_input: { command: 'ls' } },
    });
    expect(read('beforeShellExecution', { stdout: '{"permission":"maybe"}' })).toMatchObject({ status: 'failed' });
  });
});

describe('the merged outcome is written in the form Cursor documents', () => {
  test('permission events, prompt submission, stop and context', () => {
    expect(write('beforeShellExecution', { decision: 'block', reason: 'no rm' })).toEqual({
      permission: 'deny',
      agent_message: 'no rm',
      user_message: 'no rm',
    });
    expect(write('beforeShellExecution', {})).toEqual({});
    expect(write('preToolUse', { updated_input: { command: 'ls' } })).toEqual({
      permission: 'allow',
      updated_input: { command: 'ls' },
    });
    expect(write('beforeSubmitPrompt', { decision: 'block', reason: 'r' })).toEqual({
      continue: false,
      user_message: 'r',
    });
    expect(write('beforeSubmitPrompt', {})).toEqual({ continue: true });
    expect(write('stop', { decision: 'block', reason: 'go on' })).toEqual({ followup_message: 'go on' });
    expect(write('postToolUse', { additional_context: ['x'] })).toEqual({ additional_context: 'x' });
  });
});
