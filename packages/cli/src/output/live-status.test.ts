import { createHookEngine, loadConfig } from '@hookline/core';
import { scriptedRunner } from '@hookline/core/testing';
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

test("as an engine's observer it shows the engine's hooks while they run, the engine's timers faked", async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
  let written = '';
  const output = { isTTY: true, write: (text: string) => (written += text) };
  const live = createLiveStatus(output, createStyle(output, { NO_COLOR: '1' }));
  const runner = scriptedRunner();
  const text = '[[hooks]]\nname = "pre-check"\nevent = "stage_start"\ntype = "scripted"\ndelay_ms = 3000\n';
  const config = loadConfig([{ text, source: 'test.toml' }], { runners: [runner] });
  const engine = createHookEngine({ config, runners: [runner], observer: live });
  const pending = engine.emit('stage_start', { run_id: 'r1', workflow_name: 'wf' });
  await vi.advanceTimersByTimeAsync(1_500);
  expect(written).toContain('⏳ pre-check 1.5s');
  await vi.advanceTimersByTimeAsync(2_000);
  expect((await pending).hooks[0]).toMatchObject({ name: 'pre-check', status: 'ok' });
  expect(written.endsWith('\r\u001B[2K')).toBe(true);
  live.stop();
  await engine.close();
});
