// Process lifetime: timeouts end the whole group, output is capped without killing the hook, many
// hooks at once all run. Every test runs real processes; pids are checked in /proc.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createHostSession } from './host-session.ts';
import { emitHooks, quote, runOne, startEngine, baseContext } from '../test-support/hook-harness.ts';
import { isRunning, runningGroupMembers, waitFor } from '../test-support/processes.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();

function readPid(path: string): number {
  return Number(readFileSync(path, 'utf8').trim());
}

describe.each(['host', 'local'] as const)('timeouts (%s)', (placement) => {
  test('a timed-out hook is timed_out, and no process of its group survives the grace', async () => {
    const pidFile = join(scratch(), 'pid');
    const engine = startEngine([{ command: `echo $$ > ${quote(pidFile)}; sleep 300 & sleep 300`, timeout_ms: 500 }], {
      placement,
    });
    const outcome = await engine.emit('stage_start', baseContext);
    const report = outcome.hooks[0]!;
    expect(report.status).toBe('timed_out');
    expect(report.error).toBe('hook timed out after 500 ms');
    expect(report.decision).toEqual({ decision: 'block', reason: 'hook timed out after 500 ms' });
    const groupId = readPid(pidFile);
    // close() waits for the runner, which returns only after the group is gone or was sent SIGKILL.
    await engine.close();
    expect(await waitFor(() => runningGroupMembers(groupId).length === 0, 2_000)).toBe(true);
  });

  test('a hook that ignores SIGTERM is SIGKILLed after the grace, and the report is timed_out', async () => {
    const pidFile = join(scratch(), 'pid');
    // An ignored SIGTERM is inherited across exec: the background sleep ignores it too.
    const engine = startEngine(
      [
        {
          command: `trap '' TERM; echo $$ > ${quote(pidFile)}; sleep 300 & while :; do sleep 1; done`,
          timeout_ms: 500,
        },
      ],
      { placement },
    );
    const outcome = await engine.emit('stage_start', baseContext);
    expect(outcome.hooks[0]?.status).toBe('timed_out');
    const groupId = readPid(pidFile);
    // The deadline has passed and SIGTERM was sent; the 2 s grace has not, so the group is still there.
    expect(runningGroupMembers(groupId).length).toBeGreaterThan(0);
    await engine.close();
    expect(await waitFor(() => runningGroupMembers(groupId).length === 0, 2_000)).toBe(true);
  });

  test('the context file is removed after a timeout too', async () => {
    const record = join(scratch(), 'path');
    const engine = startEngine(
      [{ command: `echo "$ARC_HOOK_CONTEXT" > ${quote(record)}; sleep 300`, timeout_ms: 400 }],
      { placement },
    );
    const outcome = await engine.emit('stage_start', baseContext);
    expect(outcome.hooks[0]?.status).toBe('timed_out');
    const path = readFileSync(record, 'utf8').trim();
    await engine.close();
    expect(existsSync(path)).toBe(false);
  });
});

describe('output caps', () => {
  test('`yes` flooding stdout is capped at 1 MiB, flagged, and the hook runs to its own end', async () => {
    const report = await runOne({ command: 'yes | head -c 50000000; echo finished >&2' });
    expect(report.status).toBe('ok');
    expect(report['exit_code']).toBe(0);
    expect(report['signal']).toBeUndefined();
    expect(report['stdout_truncated']).toBe(true);
    expect(report['stderr_truncated']).toBeUndefined();
    expect(report.decision).toEqual({ decision: 'proceed' });
    expect(report.warnings?.join('\n')).toContain('stdout exceeded 1048576 bytes');
  });

  test('stderr is capped the same way', async () => {
    const report = await runOne({ command: 'yes | head -c 3000000 >&2; exit 1' });
    expect(report['stderr_truncated']).toBe(true);
    expect(report.decision).toEqual({ decision: 'block', reason: 'hook exited with code 1' });
  });

  test('memory stays bounded: 400 MB through stdout keeps 1 MiB', async () => {
    const session = createHostSession();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      const result = await session.exec({ command: 'yes | head -c 400000000' });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.length).toBe(1_048_576);
      expect(result.stdoutTruncated).toBe(true);
      expect(new TextDecoder().decode(result.stdout.subarray(0, 4))).toBe('y\ny\n');
    } finally {
      clearInterval(sampler);
      await session.dispose();
    }
    // Keeping the output would take 400 MB; dropped chunks are only garbage awaiting collection.
    expect(peak - before).toBeLessThan(200 * 1_048_576);
  });
});

describe('many hooks and process leftovers', () => {
  test.each(['host', 'local'] as const)('200 concurrent non-blocking hooks all run (%s)', async (placement) => {
    const hooks = Array.from({ length: 200 }, (_, index) => ({
      name: `writer-${index}`,
      blocking: false,
      command: `echo ${index} > ${quote(join(scratch(), `out-${index}`))}`,
    }));
    const outcome = await emitHooks(hooks, { placement });
    expect(outcome.hooks.filter((report) => report.status === 'ok')).toHaveLength(200);
    const written = readdirSync(scratch()).filter((name) => name.startsWith('out-'));
    expect(written).toHaveLength(200);
    for (let index = 0; index < 200; index++)
      expect(readFileSync(join(scratch(), `out-${index}`), 'utf8')).toBe(`${index}\n`);
  });

  test('a background process that keeps stdout open does not hold the hook past its exit', async () => {
    // The leftover holds stdout for 20 s and then leaves a mark: a hook held until stdout closed would
    // be reported only after the mark exists.
    const mark = join(scratch(), 'leftover-finished');
    const report = await runOne({ command: `(sleep 20; touch ${quote(mark)}) & echo '{"decision":"skip"}'` });
    expect(existsSync(mark)).toBe(false);
    expect(report.status).toBe('ok');
    expect(report.decision).toEqual({ decision: 'skip' });
  });

  test.each(['host', 'local'] as const)(
    'what a hook leaves in its group ends when its main process exits; a setsid daemon lives on (%s)',
    async (placement) => {
      const leader = join(scratch(), 'leader');
      const leftover = join(scratch(), 'leftover');
      const daemon = join(scratch(), 'daemon');
      // A TERM-ignoring leftover, too: it gets SIGKILL after the grace, as on a timeout.
      const command = [
        `echo $$ > ${quote(leader)}`,
        `sleep 300 & echo $! > ${quote(leftover)}`,
        `(trap '' TERM; sleep 300) >/dev/null 2>&1 &`,
        `setsid sh -c 'echo $$ > "$1"; exec sleep 300' sh ${quote(daemon)} </dev/null >/dev/null 2>&1 &`,
        `while [ ! -s ${quote(daemon)} ]; do sleep 0.01; done`,
        'exit 0',
      ].join('\n');
      const report = await runOne({ command }, { placement });
      const daemonPid = readPid(daemon);
      try {
        expect(report.status).toBe('ok');
        expect(report.decision).toEqual({ decision: 'proceed' });
        // The runner returns once the group is gone or was sent SIGKILL, which takes effect at once.
        expect(await waitFor(() => runningGroupMembers(readPid(leader)).length === 0, 2_000)).toBe(true);
        expect(isRunning(readPid(leftover))).toBe(false);
        expect(isRunning(daemonPid)).toBe(true);
      } finally {
        if (isRunning(daemonPid)) process.kill(daemonPid, 'SIGKILL');
      }
    },
  );

  test('aborting an exec ends its group and marks the result aborted', async () => {
    const session = createHostSession();
    const pidFile = join(scratch(), 'pid');
    const controller = new AbortController();
    const work = session.exec({ command: `echo $$ > ${quote(pidFile)}; sleep 300`, signal: controller.signal });
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 5_000)).toBe(true);
    controller.abort();
    const result = await work;
    expect(result.aborted).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    expect(isRunning(readPid(pidFile))).toBe(false);
    await session.dispose();
  });
});
