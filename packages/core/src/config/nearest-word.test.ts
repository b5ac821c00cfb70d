import { expect, test } from 'vitest';
import { nearestWord } from './nearest-word.ts';

test('suggests likely typos and nothing for unrelated words', () => {
  expect(nearestWord('blockng', ['blocking', 'matcher'])).toBe('blocking');
  expect(nearestWord('stage_strat', ['stage_start', 'stage_failed'])).toBe('stage_start');
  expect(nearestWord('Hook', ['hooks', 'preset'])).toBe('hooks');
  expect(nearestWord('timeout', ['timeout_ms', 'name'])).toBeUndefined();
  expect(nearestWord('xyz', ['hooks'])).toBeUndefined();
});
