import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createLiveStatus } from './live-status.ts';
import { createStyle } from './style.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

test('a hook running longer than a second gets a ticking line, erased when it ends', () => {
  let written = '';
  const output = { isTTY: true, write: (text: string) => (written += text) };
  const live = createLiveStatus(output, createStyle(output, { NO_COLOR: '1' }));
  const quick = live.start('quick');
  vi.advanceTimersByTime(300);
  live.end(quick);
  // Under a second: nothing is drawn at all.
  expect(written).toBe('');
  const slow = live.start('pre-check');
  vi.advanceTimersByTime(1_500);
  expect(written).toContain('⏳ pre-check 1.5s');
  vi.advanceTimersByTime(1_700);
  expect(written).toContain('⏳ pre-check 3.2s');
  live.end(slow);
  expect(written.endsWith('\r\u001B[2K')).toBe(true);
  live.stop();
});
