// stdout and stderr come back apart, whole, and bounded: Docker multiplexes them into one stream.
import { describe, expect, test } from 'vitest';
import { freshRunId, runOne, testSandbox, text } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'output.test.ts');

describe.skipIf(!probe.available)('output of a hook in the container', () => {
  test('more than 64 KiB of interleaved stdout and stderr arrives intact and separated', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('output'), new AbortController().signal);
    try {
      // 3 000 numbered lines on each stream, alternating: ~100 KiB per stream, in many small frames.
      const result = await session.exec({
        command:
          'i=0; while [ $i -lt 3000 ]; do echo "out $i abcdefghijklmnopqrstuvwxyz0123456789"; echo "err $i ABCDEFGHIJKLMNOPQRSTUVWXYZ9876543210" >&2; i=$((i+1)); done',
      });
      const expected = (prefix: string, tail: string) =>
        Array.from({ length: 3000 }, (_, index) => `${prefix} ${index} ${tail}\n`).join('');
      expect(result.exitCode).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(64 * 1024);
      expect(result.stderr.length).toBeGreaterThan(64 * 1024);
      expect(text(result.stdout)).toBe(expected('out', 'abcdefghijklmnopqrstuvwxyz0123456789'));
      expect(text(result.stderr)).toBe(expected('err', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ9876543210'));
      expect(result.stdoutTruncated || result.stderrTruncated).toBe(false);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('output beyond the cap is dropped and flagged, the rest drained, and the hook not killed for it', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('cap'), new AbortController().signal);
    try {
      // ~4 MiB on stdout against a 64 KiB cap, then a clean exit.
      const result = await session.exec({
        command: 'yes 0123456789abcdef | head -c 4194304; echo tail >&2; exit 7',
        maxOutputBytes: 65_536,
      });
      expect(result.exitCode).toBe(7);
      expect(result.stdout.length).toBe(65_536);
      expect(result.stdoutTruncated).toBe(true);
      expect(text(result.stderr)).toBe('tail\n');
      expect(result.stderrTruncated).toBe(false);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('stdin carries the context and is closed; a hook that never reads it is fine', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('stdin'), new AbortController().signal);
    try {
      const echoed = await session.exec({ command: 'cat; echo', stdin: '{"event":"stage_start"}' });
      expect(text(echoed.stdout)).toBe('{"event":"stage_start"}\n');
      const ignored = await session.exec({ command: 'exit 0', stdin: 'x'.repeat(1_000_000) });
      expect(ignored.exitCode).toBe(0);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('the command protocol holds through the engine: a decision on stdout, stderr in the report', async () => {
    const report = await runOne({
      command: `echo "why not" >&2; echo '{"decision":"block","reason":"container says no"}'`,
    });
    expect(report).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'container says no' },
      exit_code: 0,
      sandbox: 'docker',
    });
    const failed = await runOne({ command: 'echo "broken" >&2; exit 5' });
    expect(failed).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'hook exited with code 5' },
      stderr: 'broken',
    });
  });
});
