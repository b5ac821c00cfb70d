// The engine's sandbox_ready and sandbox_cleanup events around a run's container.
import type { EmitOutcome } from '@hookline/core';
import { describe, expect, test } from 'vitest';
import { containersOfRun, dockerEngine, emitSettled, freshRunId, testSandbox } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe, TEST_IMAGE } from '../test-support/docker-probe.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'sandbox-events.test.ts');

describe.skipIf(!probe.available)('sandbox_ready and sandbox_cleanup with the docker sandbox', () => {
  test('they run inside the run container: ready with the sandbox details, cleanup before the container is removed', async () => {
    const internal: EmitOutcome[] = [];
    const engine = dockerEngine(
      [
        {
          name: 'ready',
          event: 'sandbox_ready',
          command: 'cat "$ARC_HOOK_CONTEXT" >&2; echo >&2; hostname >&2; exit 3',
        },
        { name: 'work', blocking: false, command: 'hostname >&2; exit 3' },
        { name: 'bye', event: 'sandbox_cleanup', command: 'hostname >&2; exit 3' },
      ],
      testSandbox(),
      { onInternalEmit: (outcome) => internal.push(outcome) },
    );
    const runId = freshRunId('events');
    let containerId: string;
    try {
      const outcome = await emitSettled(engine, runId);
      containerId = (await containersOfRun(runId))[0]!.Id;
      expect(outcome.hooks[0]?.['stderr']).toBe(containerId.slice(0, 12));
      await engine.endRun(runId);
      expect(await containersOfRun(runId)).toEqual([]);
    } finally {
      await engine.close();
    }
    // sandbox_ready's hooks are non-blocking by default: the event is emitted before the first hook, but
    // its hook may finish after the cleanup's, so the outcomes are found by event, not by arrival order.
    await expect.poll(() => internal.map((found) => found.event).sort()).toEqual(['sandbox_cleanup', 'sandbox_ready']);
    const ready = internal.find((found) => found.event === 'sandbox_ready');
    const cleanup = internal.find((found) => found.event === 'sandbox_cleanup');
    const [context, hostname] = String(ready?.hooks[0]?.['stderr']).split('\n');
    expect(JSON.parse(context!)).toEqual({
      event: 'sandbox_ready',
      run_id: runId,
      workflow_name: 'tests',
      sandbox: {
        provider: 'docker',
        container_id: containerId,
        container_name: expect.stringMatching(/^hookline-events-/),
        image: TEST_IMAGE,
        replaced: 0,
      },
    });
    expect(hostname).toBe(containerId.slice(0, 12));
    expect(cleanup?.hooks[0]).toMatchObject({ status: 'ok', stderr: containerId.slice(0, 12) });
  });

  test('a blocking sandbox_ready hook that blocks stops the sandboxed hooks of that run, with a clear reason', async () => {
    const engine = dockerEngine([
      {
        name: 'image-policy',
        event: 'sandbox_ready',
        blocking: true,
        command: `echo '{"decision":"block","reason":"image not approved"}'`,
      },
      { name: 'work', command: 'exit 0' },
      { name: 'on-host', command: 'exit 0', sandbox: false, blocking: false },
    ]);
    const runId = freshRunId('refused');
    try {
      const outcome = await emitSettled(engine, runId);
      const refusal =
        'the run\'s sandbox is not available: sandbox_ready hook "image-policy" blocked the run\'s sandbox: image not approved';
      expect(outcome.hooks[0]).toMatchObject({
        name: 'work',
        status: 'failed',
        error: refusal,
        decision: { decision: 'block' },
      });
      expect(outcome).toMatchObject({ decision: 'block', reason: refusal });
      // The refused container is cleaned up and removed at once.
      expect(await containersOfRun(runId)).toEqual([]);
      const again = await emitSettled(engine, runId);
      expect(again.hooks[0]?.error).toBe(refusal);
      expect(await containersOfRun(runId)).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});
