import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { endProcessGroup, endProcessGroups, isSameProcess, localHostIdentity, processIdentity, readProcessStat } from './process-identity.ts';

function startGroup(): number {
  // A group leader with a child in its group: both must end.
  const child = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

test('the identity of a process is its pid and start time; another start time is another process', () => {
  const self = processIdentity()!;
  expect(self.pid).toBe(process.pid);
  expect(self.start).toMatch(/^\d+$/);
  expect(isSameProcess(self)).toBe(true);
  expect(isSameProcess({ pid: process.pid, start: String(Number(self.start) + 1) })).toBe(false);
  expect(processIdentity(2_147_483_000)).toBeUndefined();
  expect(readProcessStat(process.pid)).toMatchObject({ state: expect.any(String), start: self.start });
});

test('endProcessGroup ends the whole group of the recorded leader, and waits until it is gone', async () => {
  const leader = startGroup();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const identity = processIdentity(leader)!;
  expect(await endProcessGroup(identity)).toBe(true);
  expect(isSameProcess(identity)).toBe(false);
});

test('a leader pid that runs a process started at another time is never signalled', async () => {
  const leader = startGroup();
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const real = processIdentity(leader)!;
    await endProcessGroups([{ host: localHostIdentity(), pid: leader, start: String(Number(real.start) - 1) }], localHostIdentity(), 200);
    expect(isSameProcess(real)).toBe(true);
    // Nor one recorded on another host.
    await endProcessGroups([{ host: 'elsewhere', ...real }], localHostIdentity(), 200);
    expect(isSameProcess(real)).toBe(true);
  } finally {
    process.kill(-leader, 'SIGKILL');
  }
});
