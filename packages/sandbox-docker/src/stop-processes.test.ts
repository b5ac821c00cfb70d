// A timeout or an abort ends every process of the hook inside the container, not just the client's wait.
import { describe, expect, test } from 'vitest';
import {
  dockerEngine,
  emitSettled,
  freshRunId,
  testSandbox,
  text,
  topCommands,
} from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import type { DockerSandboxSession } from './docker-session.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'stop-processes.test.ts');

/** The processes of the container besides its init and the agent. */
async function leftovers(session: DockerSandboxSession): Promise<string[]> {
  const commands = await topCommands(session.container.containerId);
  return commands.filter((command) => !command.includes('hookline-agent'));
}

describe.skipIf(!probe.available)('stopping a hook in the container', () => {
  test('`sleep 300 & sleep 300` timed out after 500 ms leaves no process: docker top shows only init, the main process and the agent', async () => {
    const provider = testSandbox();
    const engine = dockerEngine([{ name: 'sleepy', command: 'sleep 300 & sleep 300', timeout_ms: 500 }], provider);
    const runId = freshRunId('timeout');
    try {
      const outcome = await emitSettled(engine, runId);
      expect(outcome.hooks[0]).toMatchObject({ status: 'timed_out', error: 'hook timed out after 500 ms' });
      const session = await provider.doOpen(runId, new AbortController().signal);
      try {
        // The engine reports at the deadline; the kill runs right after it. Give it a moment, not the grace.
        await expect.poll(() => leftovers(session), { timeout: 1_500, interval: 100 }).toEqual([]);
        // Left: init, the container's main process and the agent it forked (the hook's helper
        // processes, forks of the agent, exit once its output is collected).
        // The listing that showed three is the one checked: a later one may catch the agent mid-fork.
        let commands: string[] = [];
        await expect
          .poll(
            async () => {
              commands = await topCommands(session.container.containerId);
              return commands.length;
            },
            { timeout: 1_500, interval: 100 },
          )
          .toBe(3);
        expect(commands[0]).toMatch(/docker-init -- sh -c/);
        expect(commands.slice(1)).toEqual([
          expect.stringContaining('hookline-agent'),
          expect.stringContaining('hookline-agent'),
        ]);
      } finally {
        await session.dispose();
      }
    } finally {
      await engine.close();
    }
  });

  test('a setsid child is contained: it dies with the hook on timeout', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('setsid'), new AbortController().signal);
    try {
      const result = await session.exec({
        command: 'setsid sh -c "sleep 301 & exec sleep 302" & sleep 303',
        signal: AbortSignal.timeout(500),
      });
      expect(result.aborted).toBe(true);
      expect(await leftovers(session)).toEqual([]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('processes that ignore SIGTERM get SIGKILL after the grace; a child that cleared its environment goes with its group', async () => {
    const provider = testSandbox({ killGraceMs: 800 });
    const session = await provider.doOpen(freshRunId('term'), new AbortController().signal);
    try {
      const controller = new AbortController();
      const work = session.exec({
        command: 'trap "" TERM; env -i sleep 304 & trap "" TERM; sleep 305',
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stopped = performance.now();
      controller.abort(new Error('test abort'));
      const result = await work;
      const took = performance.now() - stopped;
      expect(result.aborted).toBe(true);
      // The grace was waited out; then only SIGKILL can have ended processes that ignore SIGTERM and
      // would sleep for five minutes, and the exec resolved once they were gone.
      expect(took).toBeGreaterThanOrEqual(700);
      expect(await leftovers(session)).toEqual([]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('a hook that ends normally leaves its background processes running, and is not held by them', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('background'), new AbortController().signal);
    try {
      // Docker itself would hold the exec's output open for 2 s while the sleep keeps it: so the
      // hook must come back sooner than one that itself runs for 1 s, timed here on the same engine.
      const baselineStarted = performance.now();
      const baseline = await session.exec({ command: 'sleep 1; echo done' });
      const oneSecondHook = performance.now() - baselineStarted;
      expect(text(baseline.stdout)).toBe('done\n');
      const started = performance.now();
      const result = await session.exec({ command: 'sleep 306 & echo done' });
      const took = performance.now() - started;
      expect(text(result.stdout)).toBe('done\n');
      expect(result.exitCode).toBe(0);
      expect(took).toBeLessThan(oneSecondHook);
      expect(await leftovers(session)).toEqual([expect.stringContaining('sleep 306')]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('another hook of the run is not touched when one is stopped', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('neighbours'), new AbortController().signal);
    try {
      const neighbour = session.exec({ command: 'sleep 1; echo survived' });
      const stopped = await session.exec({ command: 'sleep 300', signal: AbortSignal.timeout(300) });
      expect(stopped.aborted).toBe(true);
      const result = await neighbour;
      expect(text(result.stdout)).toBe('survived\n');
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('an abort that comes before the process exists still ends it', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('early'), new AbortController().signal);
    try {
      // Each exec resolves only once its `sleep 300` is gone, well before it would end by itself.
      for (const delay of [1, 5, 20, 40]) {
        const result = await session.exec({ command: 'sleep 300', signal: AbortSignal.timeout(delay) });
        expect(result.aborted).toBe(true);
      }
      expect(await leftovers(session)).toEqual([]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('disposing the session ends a running hook', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('dispose'), new AbortController().signal);
    const work = session.exec({ command: 'sleep 300' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await session.dispose();
    // The `sleep 300` would hold the exec for five minutes: resolving at all shows dispose ended it.
    const result = await work;
    expect(result.aborted).toBe(true);
    await provider.doClose();
  });
});
