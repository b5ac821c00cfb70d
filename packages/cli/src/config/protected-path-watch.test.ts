// The watch that keeps a CLI process from loading a config file a running sandboxed hook may write.
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { announceWatch, watchDirectory, watchingProcess } from './protected-path-watch.ts';

test('announced paths are watched until withdrawn; the own process and other paths are not', () => {
  const path = `/srv/watch-test-${process.pid}/hookline.toml`;
  const withdraw = announceWatch([path]);
  // This process announced it: a CLI never refuses its own hooks' paths (it loaded its config before).
  expect(watchingProcess(path)).toBeUndefined();
  const name = readdirSync(watchDirectory()).find((entry) => entry.startsWith(`${process.pid}-`));
  expect(name).toBeDefined();
  withdraw();
  expect(readdirSync(watchDirectory()).includes(name!)).toBe(false);
});

test("another running process's announcement is seen; a gone process's is dropped", async () => {
  const path = `/srv/watch-test-${process.pid}/other.toml`;
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  const pid = sleeper.pid!;
  const file = join(watchDirectory(), `${pid}-1.json`);
  announceWatch(['/nowhere'])(); // makes the folder
  writeFileSync(file, JSON.stringify({ pid, paths: [path] }), { mode: 0o600 });
  try {
    expect(watchingProcess(path)).toBe(pid);
    expect(watchingProcess(`${path}.not-watched`)).toBeUndefined();
  } finally {
    sleeper.kill('SIGKILL');
    await new Promise((resolve) => sleeper.once('exit', resolve));
  }
  expect(watchingProcess(path)).toBeUndefined();
  expect(readdirSync(watchDirectory()).includes(`${pid}-1.json`)).toBe(false);
});

test('a reused pid does not count: the recorded start time must match', () => {
  const path = `/srv/watch-test-${process.pid}/reused.toml`;
  const file = join(watchDirectory(), `${process.ppid}-1.json`);
  writeFileSync(file, JSON.stringify({ pid: process.ppid, start: '1', paths: [path] }), { mode: 0o600 });
  expect(watchingProcess(path)).toBeUndefined();
  expect(readdirSync(watchDirectory()).includes(`${process.ppid}-1.json`)).toBe(false);
});
