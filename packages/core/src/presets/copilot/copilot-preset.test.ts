import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import { standInCommandRunner } from '../../../test-support/stand-in-runners.ts';
import type { CommandExit } from '../preset.ts';
import { copilotPreset } from './copilot-preset.ts';

// The answers as measured with `@github/copilot` 1.0.102 (docs/agents/copilot.md has the runs).
const exit = (fields: Partial<CommandExit>): CommandExit => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  ...fields,
});
const read = (event: string, fields: Partial<CommandExit>) =>
  copilotPreset.command.readExit(exit(fields), { event, preset: copilotPreset, maxOutputBytes: 1_000_000 });
const write = (event: string, fields: Partial<EmitOutcome>) =>
  JSON.parse(
    copilotPreset.writeAnswer!({ event, decision: 'proceed', hooks: [], warnings: [], ...fields }, event).stdout!,
  );

describe('a Copilot hooks file', () => {
  test('.github/hooks/*.json loads unchanged: flat lists with bash or command, timeoutSec, matcher', () => {
    const config = loadConfig(
      [
        {
          text: JSON.stringify({
            version: 1,
            hooks: {
              preToolUse: [{ type: 'command', bash: './guard.sh', powershell: './guard.ps1', timeoutSec: 10 }],
              postToolUse: [{ command: 'audit.sh', matcher: 'bash' }],
              agentStop: [{ matcher: '', hooks: [{ type: 'command', command: 'nested.sh', timeout: 5 }] }],
            },
          }),
          source: '/work/project/.github/hooks/guards.json',
        },
      ],
      { runners: [standInCommandRunner().runner] },
    );
    expect(config.preset).toBe('copilot');
    expect(config.problems).toBeUndefined();
    expect(config.hooks.map((hook) => [hook.event, hook.matcher, hook.timeoutMs, hook.onError])).toEqual([
      ['preToolUse', undefined, 10_000, 'block'],
      ['postToolUse', '^(?:bash)$', 30_000, 'proceed'],
      ['agentStop', undefined, 5_000, 'proceed'],
    ]);
  });
});

describe("a command's exit is read as Copilot reads it", () => {
  test('permissionDecision with its reason, modifiedArgs, decision block, exit 2', () => {
    expect(
      read('preToolUse', { stdout: '{"permissionDecision":"deny","permissionDecisionReason":"no"}' }),
    ).toMatchObject({ decision: { decision: 'block', reason: 'no' } });
    // Copilot's own words for a deny without a reason.
    expect(read('preToolUse', { stdout: '{"permissionDecision":"deny"}' })).toMatchObject({
      decision: { decision: 'block', reason: 'No reason provided' },
    });
    expect(read('preToolUse', { stdout: '{"modifiedArgs":{"command":"ls"}}' })).toMatchObject({
      decision: { decision: 'proceed', updated_input: { command: 'ls' } },
    });
    expect(read('preToolUse', { exitCode: 2 })).toMatchObject({ decision: { decision: 'block' } });
    expect(read('userPromptSubmitted', { stdout: '{"decision":"block","reason":"later"}' })).toMatchObject({
      decision: { decision: 'block', reason: 'later' },
    });
    expect(read('agentStop', { stdout: '{"decision":"block","reason":"run the tests"}' })).toMatchObject({
      decision: { decision: 'block', reason: 'run the tests' },
    });
    expect(read('preToolUse', { stdout: '{"permissionDecision":"maybe"}' })).toMatchObject({ status: 'failed' });
    // A prompt rewrite has no Hookline equivalent: the hook fails rather than being dropped silently.
    expect(read('userPromptSubmitted', { stdout: '{"modifiedPrompt":"x"}' })).toMatchObject({ status: 'failed' });
  });
});

describe('the merged outcome is written in the forms Copilot honours', () => {
  test('preToolUse: deny and ask always with a reason, allow, modifiedArgs, nothing for proceed', () => {
    expect(write('preToolUse', { decision: 'block', reason: 'no rm' })).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm',
    });
    expect(write('preToolUse', { decision: 'block', reason: ' ', decided_by: 'guard' })).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'blocked by Hookline (hook "guard")',
    });
    expect(write('preToolUse', { decision: 'ask' })).toMatchObject({ permissionDecision: 'ask' });
    expect(write('preToolUse', { decision: 'ask' }).permissionDecisionReason).not.toBe('');
    expect(write('preToolUse', { decision: 'allow' })).toMatchObject({ permissionDecision: 'allow' });
    expect(write('preToolUse', { updated_input: { command: 'ls' } })).toMatchObject({
      permissionDecision: 'allow',
      modifiedArgs: { command: 'ls' },
    });
    expect(write('preToolUse', {})).toEqual({});
  });

  test('block where Copilot reads it, additionalContext where it takes it, nothing elsewhere', () => {
    expect(write('userPromptSubmitted', { decision: 'block', reason: 'r' })).toEqual({
      decision: 'block',
      reason: 'r',
    });
    expect(write('agentStop', { decision: 'block', reason: 'go on' })).toEqual({ decision: 'block', reason: 'go on' });
    expect(write('postToolUse', { additional_context: ['x', 'y'] })).toEqual({ additionalContext: 'x\n\ny' });
    expect(write('sessionEnd', { decision: 'block', reason: 'r', additional_context: ['x'] })).toEqual({});
  });
});
