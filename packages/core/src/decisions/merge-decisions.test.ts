import { describe, expect, test } from 'vitest';
import { mergeDecisions } from './merge-decisions.ts';

describe('mergeDecisions', () => {
  test('nothing, or only proceeds, proceeds with no winner', () => {
    expect(mergeDecisions([])).toEqual({ decision: { decision: 'proceed' }, index: undefined });
    expect(mergeDecisions([{ decision: 'proceed', reason: 'fine' }, { decision: 'proceed' }])).toEqual({
      decision: { decision: 'proceed' },
      index: undefined,
    });
  });

  test('block beats an earlier skip and override, keeping the first block and its reason', () => {
    const merged = mergeDecisions([
      { decision: 'skip', reason: 'later' },
      { decision: 'override', edge_to: 'x' },
      { decision: 'block', reason: 'first block' },
      { decision: 'block', reason: 'second block' },
    ]);
    expect(merged).toEqual({ decision: { decision: 'block', reason: 'first block' }, index: 2 });
  });

  test('the earliest of skip and override wins a tie, whichever kind it is', () => {
    expect(
      mergeDecisions([{ decision: 'proceed' }, { decision: 'override', edge_to: 'fix' }, { decision: 'skip' }]).index,
    ).toBe(1);
    expect(
      mergeDecisions([
        { decision: 'skip', reason: 's' },
        { decision: 'override', edge_to: 'fix' },
      ]).decision,
    ).toEqual({ decision: 'skip', reason: 's' });
  });

  test('ask beats skip, override and allow; block beats ask; allow beats only proceed', () => {
    expect(
      mergeDecisions([
        { decision: 'allow' },
        { decision: 'skip' },
        { decision: 'ask', reason: 'q' },
        { decision: 'ask' },
      ]),
    ).toEqual({ decision: { decision: 'ask', reason: 'q' }, index: 2 });
    expect(mergeDecisions([{ decision: 'ask' }, { decision: 'block', reason: 'no' }]).decision).toEqual({
      decision: 'block',
      reason: 'no',
    });
    expect(mergeDecisions([{ decision: 'allow' }, { decision: 'override', edge_to: 'x' }]).index).toBe(1);
    expect(
      mergeDecisions([{ decision: 'proceed' }, { decision: 'allow', reason: 'ok' }, { decision: 'allow' }]),
    ).toEqual({ decision: { decision: 'allow', reason: 'ok' }, index: 1 });
  });
});
