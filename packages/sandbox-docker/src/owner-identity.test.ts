import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readProcessStat } from '@hookline/runner-command/process-identity';
import { describe, expect, test } from 'vitest';
import { LABELS } from './labels.ts';
import { currentOwner, ownerLabels, ownerState } from './owner-identity.ts';

describe('ownerState', () => {
  test('this process is alive', () => {
    expect(ownerState(ownerLabels())).toBe('alive');
  });

  test('a process that was killed is gone', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const labels: Record<string, string> = { ...ownerLabels(), [LABELS.ownerPid]: String(child.pid) };
    // The child's own start time, as it would have written it.
    labels[LABELS.ownerStart] = readProcessStat(child.pid!)!.start;
    expect(ownerState(labels)).toBe('alive');
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(ownerState(labels)).toBe('gone');
  });

  test('a reused process id is not the owner: its start time differs', () => {
    expect(ownerState({ ...ownerLabels(), [LABELS.ownerPid]: '1', [LABELS.ownerStart]: 'not-its-start-time' })).toBe(
      'gone',
    );
  });

  test('another boot of this machine is gone; another machine is unknown', () => {
    expect(ownerState({ ...ownerLabels(), [LABELS.ownerBoot]: 'an-earlier-boot' })).toBe('gone');
    expect(ownerState({ ...ownerLabels(), [LABELS.ownerHost]: `not-${currentOwner().host}` })).toBe('unknown');
    expect(ownerState({})).toBe('unknown');
  });
});
