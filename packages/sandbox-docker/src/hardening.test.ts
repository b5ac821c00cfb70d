// The container's hardening, seen from the outside (docker inspect) and from the inside (hooks that try).
import { describe, expect, test } from 'vitest';
import { docker, dockerEngine, freshRunId, runOne, testSandbox } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe, TEST_IMAGE } from '../test-support/docker-probe.ts';
import { LABELS } from './labels.ts';
import { currentOwner } from './owner-identity.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'hardening.test.ts');

describe.skipIf(!probe.available)('hardening of a run container', () => {
  test('docker inspect shows every hardening flag and the labels', async () => {
    const provider = testSandbox();
    const runId = freshRunId('inspect');
    const session = await provider.doOpen(runId, new AbortController().signal);
    try {
      const inspected = await docker.getContainer(session.container.containerId).inspect();
      const host = inspected.HostConfig;
      expect(host.NetworkMode).toBe('none');
      expect(host.CapDrop).toEqual(['ALL']);
      expect(host.CapAdd ?? []).toEqual([]);
      expect(host.SecurityOpt).toEqual(['no-new-privileges']);
      expect(host.ReadonlyRootfs).toBe(true);
      expect(host.Tmpfs).toEqual({ '/tmp': 'rw,nosuid,nodev,noexec,size=64m,mode=1777' });
      expect(host.PidsLimit).toBe(256);
      expect(host.Memory).toBe(512 * 1024 * 1024);
      expect(host.MemorySwap).toBe(host.Memory);
      expect(host.NanoCpus).toBe(1_000_000_000);
      expect(host.Init).toBe(true);
      expect(host.Privileged).toBe(false);
      expect(inspected.Config.User).toBe('65534:65534');
      expect(inspected.Config.Image).toBe(TEST_IMAGE);
      expect(inspected.Config.Labels).toMatchObject({
        [LABELS.sandbox]: 'docker',
        [LABELS.runId]: runId,
        [LABELS.ownerPid]: String(process.pid),
        [LABELS.ownerHost]: currentOwner().host,
        [LABELS.ownerBoot]: currentOwner().boot,
      });
      expect(inspected.State.Running).toBe(true);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('a hook runs as nobody (65534), not root', async () => {
    const report = await runOne({ command: 'test "$(id -u):$(id -g)" = 65534:65534' });
    expect(report).toMatchObject({ status: 'ok', decision: { decision: 'proceed' }, exit_code: 0, sandbox: 'docker' });
  });

  test('a hook cannot write to the root filesystem, only to /tmp', async () => {
    const denied = await runOne({ command: 'touch /hookline-was-here; exit 3' });
    expect(denied).toMatchObject({ status: 'ok', exit_code: 3 });
    expect(denied['stderr']).toMatch(/Read-only file system/);
    const checked = await runOne({
      command:
        '! touch /x 2>/dev/null && ! mkdir /etc/x 2>/dev/null && echo data > /tmp/t && test "$(cat /tmp/t)" = data',
    });
    expect(checked).toMatchObject({ status: 'ok', exit_code: 0 });
  });

  test('a hook has no network: loopback is the only interface and there is no route', async () => {
    // Only the container's own loopback is ever contacted; no packet is sent anywhere else.
    const report = await runOne({
      command:
        'test "$(ls /sys/class/net)" = lo && test "$(wc -l < /proc/net/route)" -le 1 && ! wget -q -T 2 -O /dev/null http://127.0.0.1:9/ 2>/dev/null',
    });
    expect(report).toMatchObject({ status: 'ok', exit_code: 0 });
  });

  test('the context file lives in the container, mode 0600, owned by the hook user, and is removed after the hook', async () => {
    const engine = dockerEngine([
      { name: 'context', command: 'stat -c "%a %u %n" "$ARC_HOOK_CONTEXT" >&2; cat "$ARC_HOOK_CONTEXT" >&2; exit 3' },
      // A later hook of the run sees no file but its own: the first hook's was removed.
      {
        name: 'after',
        event: 'stage_complete',
        command: 'test -z "$(ls -A /tmp/hookline | grep -vx "$(basename "$ARC_HOOK_CONTEXT")")"',
      },
    ]);
    const runId = freshRunId('context');
    try {
      const first = await engine.emit('stage_start', { run_id: runId, workflow_name: 'tests', node_id: 'build' });
      expect(first.hooks[0]).toMatchObject({ status: 'ok', exit_code: 3 });
      const stderr = String(first.hooks[0]?.['stderr']);
      expect(stderr).toMatch(/^600 65534 \/tmp\/hookline\/context-[0-9a-f-]+\.json$/m);
      expect(stderr).toContain(`{"event":"stage_start","run_id":"${runId}","workflow_name":"tests","node_id":"build"}`);
      const second = await (await engine.emit('stage_complete', { run_id: runId, workflow_name: 'tests' })).settled;
      expect(second.hooks[0]).toMatchObject({ status: 'ok', exit_code: 0 });
    } finally {
      await engine.close();
    }
  });
});
