import { expect, test } from 'vitest';
import type { EmitOutcome } from '../../engine/emit-outcome.ts';
import { readClaudeAnswer } from './claude-answer.ts';
import { claudePreset } from './claude-preset.ts';

const outcome = (event: string, fields: Partial<EmitOutcome>): EmitOutcome => ({
  event,
  decision: 'proceed',
  hooks: [],
  warnings: [],
  ...fields,
});
const write = (event: string, fields: Partial<EmitOutcome>) => claudePreset.writeAnswer!(outcome(event, fields), event);

test('a PreToolUse block is written as a permissionDecision "deny" with its reason, at exit 0', () => {
  expect(write('PreToolUse', { decision: 'block', reason: 'no force pushes', decided_by: 'guard' })).toEqual({
    exitCode: 0,
    stdout:
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no force pushes"}}\n',
  });
});

test('proceed with nothing else prints nothing: Claude Code carries on as it would', () => {
  expect(write('PreToolUse', {})).toEqual({ exitCode: 0 });
  expect(write('Stop', {})).toEqual({ exitCode: 0 });
});

test('a Stop block is the top-level decision with its reason; messages and contexts are joined', () => {
  const answer = write('UserPromptSubmit', {
    decision: 'block',
    reason: 'secret in prompt',
    additional_context: ['one', 'two'],
    system_messages: ['a', 'b'],
  });
  expect(JSON.parse(answer.stdout!)).toEqual({
    decision: 'block',
    reason: 'secret in prompt',
    systemMessage: 'a\nb',
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'one\n\ntwo' },
  });
});

test('a PermissionRequest allow carries the replacement input; a deny its message', () => {
  expect(
    JSON.parse(write('PermissionRequest', { decision: 'allow', updated_input: { command: 'ls' } }).stdout!),
  ).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { command: 'ls' } },
    },
  });
  expect(
    JSON.parse(write('PermissionRequest', { decision: 'block', reason: 'not here' }).stdout!).hookSpecificOutput
      .decision,
  ).toEqual({ behavior: 'deny', message: 'not here' });
});

// What Hookline writes, Claude Code's reader (the preset's own readAnswer) reads back as the same decision.
test.each([
  ['PreToolUse', { decision: 'allow', reason: 'read-only' }],
  ['PreToolUse', { decision: 'ask', reason: 'unsure' }],
  [
    'PreToolUse',
    { decision: 'block', reason: 'denied', updated_input: { command: 'true' }, additional_context: ['ctx'] },
  ],
  ['PermissionRequest', { decision: 'allow', updated_input: { a: 1 } }],
  ['PostToolUse', { decision: 'block', reason: 'lint failed' }],
  ['Stop', { decision: 'proceed', continue: false, stop_reason: 'done' }],
  ['SessionStart', { decision: 'proceed', additional_context: ['hello'] }],
] as const)('%s %j round-trips through readClaudeAnswer', (event, fields) => {
  const answer = write(event, fields);
  const read = readClaudeAnswer(JSON.parse(answer.stdout!), event)!;
  expect(read.problems ?? []).toEqual([]);
  expect(read.warnings).toEqual([]);
  const { additional_context, ...rest } = fields as Partial<EmitOutcome>;
  expect(read.decision).toEqual({
    ...rest,
    ...(additional_context === undefined ? {} : { additional_context: additional_context.join('\n\n') }),
  });
});
