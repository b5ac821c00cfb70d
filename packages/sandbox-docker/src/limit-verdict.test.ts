import { describe, expect, test } from 'vitest';
import { parseLimitCounters } from './limit-counters.ts';
import { limitVerdict } from './limit-verdict.ts';

const settings = { memoryBytes: 512 * 1024 * 1024, pids: 256 };
const zero = { oomKills: 0, pidsLimitHits: 0 };

describe('limitVerdict', () => {
  test('nothing new: no error, counters carried', () => {
    expect(
      limitVerdict({ oomKills: 1, pidsLimitHits: 4 }, { oomKills: 1, pidsLimitHits: 4 }, settings, 2, false),
    ).toEqual({ counted: { oomKills: 1, pidsLimitHits: 4 }, notes: [] });
  });

  test('an OOM kill since the last look fails the exec as out of memory, whatever its exit code', () => {
    const verdict = limitVerdict(zero, { oomKills: 1, pidsLimitHits: 0 }, settings, 1, false);
    expect(verdict.error?.kind).toBe('out_of_memory');
    expect(verdict.error?.message).toBe(
      "the hook ran out of memory: the kernel's OOM killer ended a process at the container's limit of 512 MiB (exit code 1); raise [sandbox.docker] memory if the hook needs more",
    );
    expect(verdict.counted).toEqual({ oomKills: 1, pidsLimitHits: 0 });
  });

  test('refused forks fail the exec as a pids limit, even after exit 0', () => {
    const verdict = limitVerdict(zero, { oomKills: 0, pidsLimitHits: 7 }, settings, 0, false);
    expect(verdict.error?.kind).toBe('pids_limit');
    expect(verdict.error?.message).toMatch(
      /^the hook reached the container's limit of 256 processes: 7 fork\(s\) were refused while it ran/,
    );
  });

  test('a stopped hook gets notes, not an error', () => {
    expect(limitVerdict(zero, { oomKills: 0, pidsLimitHits: 3 }, settings, 137, true)).toEqual({
      counted: { oomKills: 0, pidsLimitHits: 3 },
      notes: ["before it was stopped, 3 fork(s) were refused at the container's limit of 256 processes"],
    });
  });

  test('exit 137 without a readable OOM counter is said to be undecidable, honestly', () => {
    const verdict = limitVerdict(zero, { oomKills: undefined, pidsLimitHits: undefined }, settings, 137, false);
    expect(verdict.error).toBeUndefined();
    expect(verdict.notes).toEqual([
      "exit code 137 is SIGKILL; the container's OOM counter cannot be read on this engine, so whether the 512 MiB memory limit was hit is unknown",
    ]);
  });
});

describe('parseLimitCounters', () => {
  test('reads the agent answer; "-" is unreadable', () => {
    expect(parseLimitCounters('2 15\n')).toEqual({ oomKills: 2, pidsLimitHits: 15 });
    expect(parseLimitCounters('- 0')).toEqual({ oomKills: undefined, pidsLimitHits: 0 });
  });
});
