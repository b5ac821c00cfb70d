import { describe, expect, test } from 'vitest';
import { readAnswer, readTextAnswer } from './read-answer.ts';

describe('readTextAnswer (an agent’s final reply)', () => {
  test('bare JSON, and JSON in a fence with or without a language tag', () => {
    expect(readTextAnswer('{"ok": true}')).toEqual({ ok: true, decision: { decision: 'proceed' } });
    expect(readTextAnswer('  ```json\n{"ok": false, "reason": "no tests"}\n```  ')).toEqual({
      ok: true,
      decision: { decision: 'block', reason: 'no tests' },
    });
    expect(readTextAnswer('```\r\n{"ok": true, "reason": "all good"}\r\n```')).toEqual({
      ok: true,
      decision: { decision: 'proceed', reason: 'all good' },
    });
  });

  test('unknown fields are ignored', () => {
    expect(readTextAnswer('{"ok": true, "confidence": 0.9}')).toEqual({ ok: true, decision: { decision: 'proceed' } });
  });

  test('prose, prose around JSON, two fences, a non-boolean ok and an empty reply are unparseable', () => {
    for (const text of [
      'Looks fine!',
      'Answer: {"ok": true}',
      '```json\n{"ok": true}\n```\n```json\n{"ok": false}\n```',
      '{"ok": "true"}',
      '',
      '[true]',
    ]) {
      const reading = readTextAnswer(text);
      expect(reading.ok, text).toBe(false);
      if (!reading.ok) expect(reading.error).toMatch(/^unparseable answer: /);
    }
  });
});

describe('readAnswer (a tool input)', () => {
  test('a block always has a reason; a blank reason counts as none', () => {
    expect(readAnswer({ ok: false, reason: '  ' })).toEqual({
      ok: true,
      decision: { decision: 'block', reason: 'the model answered ok: false without a reason' },
    });
    expect(readAnswer({ ok: true, reason: '' })).toEqual({ ok: true, decision: { decision: 'proceed' } });
  });

  test('a missing ok is unparseable', () => {
    expect(readAnswer({ reason: 'x' }).ok).toBe(false);
    expect(readAnswer(null).ok).toBe(false);
  });
});
