import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  endProcessGroup,
  endProcessGroups,
  isSameProcess,
  localHostIdentity,
  processIdentity,
  readProcessStat,
  type RecordedProcessGroup,
} from './process-identity.ts';

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
  const host = localHostIdentity();
  expect(await endProcessGroup({ host, ...identity }, host)).toBeUndefined();
  expect(isSameProcess(identity)).toBe(false);
  // A group that is gone is nothing to report.
  expect(await endProcessGroups([{ host, ...identity }], host)).toEqual([]);
});

describe('a recorded group is signalled only when its identity fully matches', () => {
  const host = localHostIdentity();
  let victim: { pid: number; start: string };
  beforeAll(async () => {
    victim = processIdentity(startGroup())!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  });
  afterAll(() => {
    try {
      process.kill(-victim.pid, 'SIGKILL');
    } catch {
      // Already gone: the test that ended it failed.
    }
  });
  const forged: ReadonlyArray<readonly [string, () => RecordedProcessGroup, RegExp]> = [
    ['an empty start time', () => ({ host, pid: victim.pid, start: '' }), /start time is empty/],
    ['no start time', () => ({ host, pid: victim.pid }), /start time is missing or malformed/],
    [
      'a start time that is not digits',
      () => ({ host, pid: victim.pid, start: `${victim.start} ` }),
      /missing or malformed/,
    ],
    [
      'a numeric start time (not text)',
      () => ({ host, pid: victim.pid, start: Number(victim.start) }),
      /missing or malformed/,
    ],
    [
      'another start time',
      () => ({ host, pid: victim.pid, start: String(Number(victim.start) - 1) }),
      /now runs another process/,
    ],
    ['no host', () => ({ pid: victim.pid, start: victim.start }), /host is not recorded/],
    ['an empty host', () => ({ host: '', pid: victim.pid, start: victim.start }), /host is not recorded/],
    ['another host', () => ({ host: 'elsewhere/boot/ns', pid: victim.pid, start: victim.start }), /another host/],
    ['pid 1', () => ({ host, pid: 1, start: processIdentity(1)?.start ?? '1' }), /integer above 1/],
    ['pid 0', () => ({ host, pid: 0, start: victim.start }), /integer above 1/],
    ['a negative pid', () => ({ host, pid: -victim.pid, start: victim.start }), /integer above 1/],
    ['a pid of text', () => ({ host, pid: String(victim.pid), start: victim.start }), /integer above 1/],
    ['a fractional pid', () => ({ host, pid: victim.pid + 0.5, start: victim.start }), /integer above 1/],
    [
      'this process',
      () => ({ host, pid: process.pid, start: processIdentity()!.start }),
      /this Hookline process or its own group/,
    ],
    [
      "this process's group",
      () => ({
        host,
        pid: readProcessStat(process.pid)!.group,
        start: processIdentity(readProcessStat(process.pid)!.group)?.start ?? victim.start,
      }),
      /this Hookline process or its own group|no longer leads/,
    ],
  ];
  for (const [form, group, why] of forged) {
    test(`${form}: nothing is signalled, and the refusal says why`, async () => {
      const warnings = await endProcessGroups([group()], host, 200);
      expect(warnings).toEqual([expect.stringMatching(why)]);
      expect(isSameProcess(victim)).toBe(true);
      expect(readProcessStat(victim.pid)?.state).not.toBe('Z');
    });
  }
  test('a process that runs but does not lead its group is not signalled', async () => {
    // The group's child: alive, in the victim's group, not its leader.
    const child = readdirSync('/proc')
      .map(Number)
      .find((pid) => pid !== victim.pid && readProcessStat(pid)?.group === victim.pid);
    expect(child).toBeDefined();
    const warnings = await endProcessGroups([{ host, pid: child!, start: readProcessStat(child!)!.start }], host, 200);
    expect(warnings).toEqual([expect.stringMatching(/no longer leads a process group/)]);
    expect(isSameProcess(victim)).toBe(true);
  });
  test('when a machine has no identity, nothing is signalled', async () => {
    expect(await endProcessGroups([{ host: '', ...victim }], '', 200)).toEqual([expect.stringMatching(/no identity/)]);
    expect(isSameProcess(victim)).toBe(true);
  });
});
