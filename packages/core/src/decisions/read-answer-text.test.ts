import { describe, expect, test } from 'vitest';
import { claudePreset } from '../presets/claude/claude-preset.ts';
import { readAnswerText } from './read-answer-text.ts';

const hookline = { event: 'stage_start', what: 'stdout' } as const;
const claude = { event: 'PreToolUse', what: 'stdout', preset: claudePreset } as const;

describe('readAnswerText', () => {
  test('plain text, numbers and nothing are not answers, whatever the format', () => {
    for (const scope of [hookline, claude]) {
      for (const text of ['', '   ', 'all good', '42', 'true', 'null', 'log {"decision":"block"}'])
        expect(readAnswerText(text, scope).kind).toBe('none');
      expect(readAnswerText('a long log line', { ...scope, truncated: true, capBytes: 10 }).kind).toBe('none');
    }
  });

  test('JSON-looking text that cannot be honoured is unreadable, in both formats', () => {
    const garbled = [
      '{"decision": "block",}',
      '[{"decision": "block"}]',
      '"block"',
      '{"decision": "BLOCK"}',
      '{"decision": 7}',
      '{"decision": "block", "updated_input": []}',
    ];
    for (const text of garbled) expect(readAnswerText(text, hookline)).toMatchObject({ kind: 'unreadable' });
    const claudeGarbled = [
      '{"hookSpecificOutput": {"permissionDecision": "deny",}}',
      '{"hookSpecificOutput": {"permissionDecision": "Deny"}}',
      '{"hookSpecificOutput": {"permissionDecision": 1}}',
      '{"hookSpecificOutput": []}',
      '{"hookSpecificOutput": {"decision": {"behavior": "DENY"}}}',
      '{"decision": "deny"}',
      '{"permissionDecision": "deny"}',
      '{"continue": 0}',
      '["deny"]',
    ];
    for (const text of claudeGarbled) expect(readAnswerText(text, claude)).toMatchObject({ kind: 'unreadable' });
    expect(readAnswerText('{"decision": "block"', { ...hookline, truncated: true, capBytes: 20 })).toEqual({
      kind: 'unreadable',
      problem:
        'stdout is a JSON answer larger than 20 bytes; it was cut at 20, so no decision can be read from it (keep the answer smaller)',
      warnings: [],
    });
  });

  test('valid answers read; a JSON object without a decision field decides nothing', () => {
    expect(readAnswerText(' {"decision": "skip", "reason": "done"} ', hookline)).toEqual({
      kind: 'answer',
      decision: { decision: 'skip', reason: 'done' },
      warnings: [],
    });
    expect(readAnswerText('{"ok": true}', hookline)).toMatchObject({ kind: 'none' });
    expect(
      readAnswerText('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}', claude),
    ).toMatchObject({ kind: 'answer', decision: { decision: 'block' } });
    // A field that does not decide, of the wrong type, is only a warning.
    expect(readAnswerText('{"systemMessage": 3}', claude)).toMatchObject({
      kind: 'answer',
      warnings: ['systemMessage must be a string, got 3; ignored'],
    });
  });
});
