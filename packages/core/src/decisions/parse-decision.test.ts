import { describe, expect, test } from 'vitest';
import { parseDecision, parseDecisionText } from './parse-decision.ts';

describe('parseDecision', () => {
  test('reads every kind and ignores unknown fields', () => {
    expect(parseDecision({ decision: 'proceed', extra: 1 })).toEqual({ decision: 'proceed' });
    expect(parseDecision({ decision: 'skip', reason: 'r' })).toEqual({ decision: 'skip', reason: 'r' });
    expect(parseDecision({ decision: 'block', reason: 'no' })).toEqual({ decision: 'block', reason: 'no' });
    expect(parseDecision({ decision: 'override', edge_to: 'fix', reason: 'go' })).toEqual({
      decision: 'override',
      edge_to: 'fix',
      reason: 'go',
    });
  });

  test('reads allow and ask, and the extras with their types checked', () => {
    expect(parseDecision({ decision: 'allow' })).toEqual({ decision: 'allow' });
    expect(parseDecision({ decision: 'ask', reason: 'sure?' })).toEqual({ decision: 'ask', reason: 'sure?' });
    const extras = {
      updated_input: { command: 'ls' },
      additional_context: 'ctx',
      continue: false,
      stop_reason: 'done',
      system_message: 'hi',
    };
    expect(parseDecision({ decision: 'proceed', ...extras, other: 1 })).toEqual({ decision: 'proceed', ...extras });
    expect(parseDecision({ decision: 'proceed', additional_context: null })).toEqual({ decision: 'proceed' });
    expect(parseDecision({ decision: 'proceed', updated_input: 'ls' })).toBeUndefined();
    expect(parseDecision({ decision: 'proceed', updated_input: ['ls'] })).toBeUndefined();
    expect(parseDecision({ decision: 'proceed', continue: 'no' })).toBeUndefined();
    expect(parseDecision({ decision: 'proceed', system_message: 3 })).toBeUndefined();
  });

  test('keeps edge_to only for override', () => {
    expect(parseDecision({ decision: 'skip', edge_to: 'x' })).toEqual({ decision: 'skip' });
  });

  test('rejects override without edge_to, unknown kinds, bad reasons and non-objects', () => {
    expect(parseDecision({ decision: 'override' })).toBeUndefined();
    expect(parseDecision({ decision: 'override', edge_to: '' })).toBeUndefined();
    expect(parseDecision({ decision: 'approve' })).toBeUndefined();
    expect(parseDecision({ decision: 'block', reason: 42 })).toBeUndefined();
    expect(parseDecision(['block'])).toBeUndefined();
    expect(parseDecision(null)).toBeUndefined();
    expect(parseDecision('block')).toBeUndefined();
  });
});

describe('parseDecisionText', () => {
  test('accepts exactly one JSON object with surrounding whitespace', () => {
    expect(parseDecisionText('\n  {"decision":"skip","reason":"ci"}\n')).toEqual({ decision: 'skip', reason: 'ci' });
  });

  test('text around the JSON, truncated JSON and empty text are not decisions', () => {
    expect(parseDecisionText('checking…\n{"decision":"block"}')).toBeUndefined();
    expect(parseDecisionText('{"decision":"block"')).toBeUndefined();
    expect(parseDecisionText('')).toBeUndefined();
  });
});
