import { describe, expect, test } from 'vitest';
import { mergeExtras } from './merge-extras.ts';

describe('mergeExtras', () => {
  test('nothing set gives no field at all', () => {
    const warnings: string[] = [];
    expect(mergeExtras([{ decision: 'proceed' }, { decision: 'block' }], ['a', 'b'], warnings)).toEqual({});
    expect(warnings).toEqual([]);
  });

  test('contexts and messages all, in order; the last updated_input wins with a warning; the first stop reason', () => {
    const warnings: string[] = [];
    const merged = mergeExtras(
      [
        { decision: 'allow', updated_input: { command: 'ls' }, additional_context: 'one', system_message: 'm1' },
        { decision: 'proceed', continue: true, stop_reason: 'ignored: continues' },
        { decision: 'proceed', continue: false, stop_reason: 'first stop', additional_context: 'two' },
        {
          decision: 'proceed',
          continue: false,
          stop_reason: 'second stop',
          updated_input: { command: 'ls -la' },
          system_message: 'm2',
        },
      ],
      ['a', 'b', 'c', 'd'],
      warnings,
    );
    expect(merged).toEqual({
      updated_input: { command: 'ls -la' },
      additional_context: ['one', 'two'],
      continue: false,
      stop_reason: 'first stop',
      system_messages: ['m1', 'm2'],
    });
    expect(warnings).toEqual(['hooks "a", "d" each set updated_input; the last one in config order ("d") wins']);
  });
});
