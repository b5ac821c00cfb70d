// One container per run: made on first use, shared, replaced once if it dies, removed with the run.
import { describe, expect, test } from 'vitest';
import {
  containersOfRun,
  docker,
  dockerEngine,
  emitSettled,
  freshRunId,
  testSandbox,
  text,
} from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import { DockerExecError } from './docker-exec-error.ts';
import type { DockerSandboxInfo } from './docker-sandbox-events.ts';
import { LABELS } from './labels.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'lifecycle.test.ts');

const never = new AbortController().signal;

describe.skipIf(!probe.available)('containers of runs', () => {
  test('20 hooks of one run share one container; two runs get two; after close no labelled container remains', async () => {
    const hooks = Array.from({ length: 20 }, (_, index) => ({
      name: `h${index}`,
      blocking: false,
      command: 'hostname >&2; exit 3',
    }));
    const engine = dockerEngine(hooks);
    const [first, second] = [freshRunId('share-a'), freshRunId('share-b')];
    try {
      const [a, b] = await Promise.all([emitSettled(engine, first), emitSettled(engine, second)]);
      for (const outcome of [a, b]) expect(outcome.hooks.map((report) => report.status)).toEqual(Array(20).fill('ok'));
      const hostsA = new Set(a.hooks.map((report) => report['stderr']));
      const hostsB = new Set(b.hooks.map((report) => report['stderr']));
      expect(hostsA.size).toBe(1);
      expect(hostsB.size).toBe(1);
      expect([...hostsA][0]).not.toBe([...hostsB][0]);
      const [containersA, containersB] = await Promise.all([containersOfRun(first), containersOfRun(second)]);
      expect(containersA).toHaveLength(1);
      expect(containersB).toHaveLength(1);
      expect(containersA[0]!.Id.startsWith(String([...hostsA][0]))).toBe(true);
    } finally {
      await engine.close();
    }
    expect(await containersOfRun(first)).toEqual([]);
    expect(await containersOfRun(second)).toEqual([]);
    expect(
      await docker.listContainers({ all: true, filters: { label: [`${LABELS.ownerPid}=${process.pid}`] } }),
    ).toEqual([]);
  });

  test('concurrent first opens of a run share one container, which goes with the last session', async () => {
    const provider = testSandbox();
    const runId = freshRunId('concurrent');
    const sessions = await Promise.all(Array.from({ length: 5 }, () => provider.doOpen(runId, never)));
    expect(new Set(sessions.map((session) => session.container.containerId)).size).toBe(1);
    expect(await containersOfRun(runId)).toHaveLength(1);
    for (const session of sessions.slice(1)) await session.dispose();
    expect(await containersOfRun(runId)).toHaveLength(1);
    expect(text((await sessions[0]!.exec({ command: 'echo alive' })).stdout)).toBe('alive\n');
    await sessions[0]!.dispose();
    expect(await containersOfRun(runId)).toEqual([]);
    await provider.doClose();
  });

  test('endRun removes the run container; the next hook of that run gets a new one', async () => {
    const engine = dockerEngine([{ name: 'h', command: 'exit 0' }]);
    const runId = freshRunId('end-run');
    try {
      await emitSettled(engine, runId);
      const [before] = await containersOfRun(runId);
      await engine.endRun(runId);
      expect(await containersOfRun(runId)).toEqual([]);
      await emitSettled(engine, runId);
      const [after] = await containersOfRun(runId);
      expect(after?.Id).toBeDefined();
      expect(after?.Id).not.toBe(before?.Id);
    } finally {
      await engine.close();
    }
  });

  test('a container that dies mid-run is replaced once, with a warning; a second death fails the run', async () => {
    const warnings: string[] = [];
    const provider = testSandbox({ onWarning: (message) => warnings.push(message) });
    const session = await provider.doOpen(freshRunId('died'), never);
    try {
      const first = session.container.containerId;
      // Kills every process this user may signal, the agent included, and with it the container.
      const killer = await session.exec({ command: 'kill -9 -1; sleep 5' }).catch((error: unknown) => error);
      expect(DockerExecError.isInstance(killer) && killer.kind).toBe('container');
      expect((killer as Error).message).toMatch(
        /^the run's container stopped while the hook ran \(status exited, exit code \d+\); the hook did not complete/,
      );
      const next = await session.exec({ command: 'echo replaced' });
      expect(text(next.stdout)).toBe('replaced\n');
      expect(next.warnings).toEqual([
        expect.stringMatching(
          /^the run's container had stopped \(status exited, exit code \d+\); this hook ran in a replacement, hookline-died-/,
        ),
      ]);
      expect(session.container.containerId).not.toBe(first);
      expect(session.container.replaced).toBe(1);
      expect(warnings).toEqual([
        expect.stringMatching(/stopped \(status exited, exit code \d+\); it was replaced by hookline-died-/),
      ]);
      expect(session.warnings).toEqual(warnings);

      await session.exec({ command: 'kill -9 -1; sleep 5' }).catch(() => undefined);
      const broken = await session.exec({ command: 'echo again' }).catch((error: unknown) => error);
      expect((broken as Error).message).toMatch(/stopped again after it was replaced once/);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('a container removed from outside while a hook runs fails that hook; the next one runs in a replacement', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('removed'), never);
    try {
      const removed = session.container.containerId;
      const running = session.exec({ command: 'sleep 30' }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await docker.getContainer(removed).remove({ force: true });
      const error = await running;
      expect(DockerExecError.isInstance(error) && error.kind).toBe('container');
      expect((error as Error).message).toMatch(
        /^the run's container stopped while the hook ran \((it was removed|status \w+, exit code \d+)\); the hook did not complete/,
      );
      const next = await session.exec({ command: 'echo fine' });
      expect(text(next.stdout)).toBe('fine\n');
      expect(session.container.containerId).not.toBe(removed);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('onReady sees the container before any hook and onCleanup before it is removed; details describe it', async () => {
    const events: Array<[string, DockerSandboxInfo, boolean]> = [];
    const provider = testSandbox({
      onReady: async (info) =>
        void events.push(['ready', info, (await docker.getContainer(info.containerId).inspect()).State.Running]),
      onCleanup: async (info) =>
        void events.push(['cleanup', info, (await docker.getContainer(info.containerId).inspect()).State.Running]),
    });
    const runId = freshRunId('events');
    const session = await provider.doOpen(runId, never);
    expect(session.details).toEqual({
      container_id: session.container.containerId,
      container_name: session.container.containerName,
      image: session.container.image,
      replaced: 0,
    });
    expect(session.container.containerName).toMatch(/^hookline-events-[0-9a-f]{8}-[0-9a-f]{8}$/);
    await session.dispose();
    await provider.doClose();
    expect(events.map(([name, info, running]) => [name, info.runId, info.containerId, running])).toEqual([
      ['ready', runId, session.container.containerId, true],
      ['cleanup', runId, session.container.containerId, true],
    ]);
    expect(await containersOfRun(runId)).toEqual([]);
  });

  test('an onReady that rejects fails the opening: the hook is failed with its reason and the container removed', async () => {
    const provider = testSandbox({
      onReady: () => Promise.reject(new Error('sandbox_ready hook "scan" blocked: image not approved')),
    });
    const engine = dockerEngine([{ name: 'h', command: 'exit 0' }], provider);
    const runId = freshRunId('blocked');
    try {
      const outcome = await emitSettled(engine, runId);
      expect(outcome.hooks[0]).toMatchObject({
        status: 'failed',
        error: 'the run\'s sandbox is not available: sandbox_ready hook "scan" blocked: image not approved',
      });
      expect(await containersOfRun(runId)).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});
