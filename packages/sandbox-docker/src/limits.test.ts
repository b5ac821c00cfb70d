// The container's limits stop what would hurt the machine, and the hook's report says which limit.
import { describe, expect, test } from 'vitest';
import { docker, freshRunId, runOne, testSandbox, text, topCommands } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import { DockerExecError } from './docker-exec-error.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'limits.test.ts');

describe.skipIf(!probe.available)('limits of a run container', () => {
  test('a fork bomb is stopped by the pids limit and reported as such', async () => {
    // Bounded twice over: the container's pids limit is 32, and busybox's sh gives up when a fork fails.
    const report = await runOne({ command: 'bomb() { bomb & bomb & wait; }; bomb', timeout_ms: 20_000 }, { pids: 32 });
    expect(report.status).toBe('failed');
    expect(report.decision).toEqual({ decision: 'block', reason: report.error });
    expect(report.error).toMatch(/^the hook reached the container's limit of 32 processes: \d+ fork\(s\) were refused/);
  });

  test('a fork bomb that outlives its timeout is ended, and nothing of it is left', async () => {
    const provider = testSandbox({ pids: 32 });
    const session = await provider.doOpen(freshRunId('bomb'), new AbortController().signal);
    try {
      // Each process keeps forking after failures, so the bomb never ends by itself.
      const result = await session.exec({
        command: 'while :; do (sleep 30 &) 2>/dev/null; done & while :; do (sleep 30 &) 2>/dev/null; done & wait',
        signal: AbortSignal.timeout(1_500),
      });
      expect(result.aborted).toBe(true);
      const left = await topCommands(session.container.containerId);
      expect(left.filter((command) => !command.includes('hookline-agent'))).toEqual([]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('a memory hog is reported as out of memory', async () => {
    const report = await runOne({ command: 'x=0123456789abcdef; while :; do x="$x$x"; done' }, { memory: '32m' });
    expect(report.status).toBe('failed');
    expect(report.error).toBe(
      "the hook ran out of memory: the kernel's OOM killer ended a process at the container's limit of 32 MiB (exit code 137); raise [sandbox.docker] memory if the hook needs more",
    );
  });

  test('the session rejects an exec that ran out of memory with a DockerExecError of kind out_of_memory, and the run goes on', async () => {
    const provider = testSandbox({ memory: '32m' });
    const session = await provider.doOpen(freshRunId('oom'), new AbortController().signal);
    try {
      const error = await session
        .exec({ command: 'x=0123456789abcdef; while :; do x="$x$x"; done' })
        .catch((caught: unknown) => caught);
      expect(DockerExecError.isInstance(error) && error.kind).toBe('out_of_memory');
      const after = await session.exec({ command: 'echo still here' });
      expect(text(after.stdout)).toBe('still here\n');
      expect((await docker.getContainer(session.container.containerId).inspect()).State.Running).toBe(true);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });
});
