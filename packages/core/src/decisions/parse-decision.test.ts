import { describe, expect, test } from 'vitest';
import { parseDecision, parseDecisionText } from './parse-decision.ts';

describe('parseDecision', () => {
  test('reads every kind and ignores unknown fields', () => {
    expect(parseDecision({ decision: 'proceed', extra: 1 })).toEqual({ decision: 'proceed' });
    expect(parseDecision({ decision: 'skip', reason: 'r' })).toEqual({ decision: 'skip', reason: 'r' });
    expect(parseDecision({ decision: 'block', reason: 'no' })).toEqual({ decision: 'block', reason: 'no' });
    expect(parseDecision({ decision: 'override', edge_to: 'fix', reason: 'go' })).toEqual({ decision: 'override', edge_to: 'fix', reason: 'go' });
  });

  test('keeps edge_to only for override', () => {
    expect(parseDecision({ decision: 'skip', edge_to: 'x' })).toEqual({ decision: 'skip' });
  });

  test('rejects override without edge_to, unknown kinds, bad reasons and non-objects', () => {
    expect(parseDecision({ decision: 'override' })).toBeUndefined();
    expect(parseDecision({ decision: 'override', edge_to: '' })).toBeUndefined();
    expect(parseDecision({ decision: 'allow' })).toBeUndefined();
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
